import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { OutboxRelay } from '../src/features/events/outbox-relay.service';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * D13 live updates over graphql-ws: a subscriber of instance A sees changes written through a
 * second instance B on the same database (both relay from the shared outbox).
 */
const SUBSCRIPTION = `subscription Live($toolName: String, $scope: Scope, $scopeId: String, $status: ToolStatus) {
  toolHealthChanged(toolName: $toolName, scope: $scope, scopeId: $scopeId, status: $status) {
    id position type docId scope scopeId toolName status at
    payload {
      __typename
      ... on StatusChangedPayload { previousStatus code expectedRecoveryAt }
      ... on CooldownPayload { errorSignature userId windowMs }
      ... on InboxItemPayload { userId classification }
    }
  }
}`;

interface LiveEvent {
  id: string;
  position: string;
  type: string;
  docId: string;
  scope: string;
  scopeId: string | null;
  toolName: string;
  status: string;
  at: string;
  payload: Record<string, unknown>;
}

/** One open subscription: what it received, how it ended. */
interface Feed {
  events: LiveEvent[];
  errors: unknown[];
  ended: Promise<void>;
  stop(): void;
}

async function eventually(check: () => void, timeoutMs = 5000, stepMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('toolHealthChanged over graphql-ws (D13, D17)', () => {
  const clock = new FakeClock();
  let a: TestApp;
  let b: TestApp;
  let wsUrl: string;
  const clients: Client[] = [];

  function client(key: string | undefined): Client {
    const c = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: key === undefined ? undefined : { 'x-api-key': key },
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(c);
    return c;
  }

  function subscribe(c: Client, variables: Record<string, unknown> = {}): Feed {
    const events: LiveEvent[] = [];
    const errors: unknown[] = [];
    let stop!: () => void;
    const ended = new Promise<void>((resolve) => {
      stop = c.subscribe<{ toolHealthChanged: LiveEvent }>(
        { query: SUBSCRIPTION, variables },
        {
          next: (result) => {
            if (result.errors) errors.push(...result.errors);
            if (result.data) events.push(result.data.toolHealthChanged);
          },
          error: (error) => {
            errors.push(error);
            resolve();
          },
          complete: () => resolve(),
        },
      );
    });
    return { events, errors, ended, stop };
  }

  const relayA = () => a.app.get(OutboxRelay);

  /** The server has registered `n` listeners: writes from now on reach them all. */
  async function subscribed(n: number): Promise<void> {
    await eventually(() => expect(relayA().subscriberCount).toBe(n));
  }

  function write(path: string, body: Record<string, unknown>) {
    return b.http
      .post(`/v1/health/${path}`)
      .set('x-api-key', KEYS.dispatcher)
      .send({ source: 'e2e', ...body })
      .expect(200);
  }

  beforeAll(async () => {
    a = await createTestApp({ env: { OUTBOX_POLL_MS: '20' }, clock });
    b = await createTestApp({ env: { OUTBOX_POLL_MS: '20' }, clock });
    await resetDatabase(a.connection);
    await a.app.listen(0, '127.0.0.1');
    const { port } = a.app.getHttpServer().address() as { port: number };
    wsUrl = `ws://127.0.0.1:${port}/graphql`;
  });

  beforeEach(() => {
    // Events of earlier tests are then stamped before the next subscriber arrives: history, not news.
    clock.advance(60_000);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await eventually(() => expect(relayA().subscriberCount).toBe(0));
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('delivers a change written through another instance to a subscriber of this one', async () => {
    const feed = subscribe(client(KEYS.audit), { toolName: 'live-jira' });
    await subscribed(1);

    await write('mark-unavailable', { scope: 'GLOBAL', toolName: 'live-jira', code: 'BACKEND_FAILED' });

    await eventually(() => expect(feed.events).toHaveLength(1));
    expect(feed.errors).toEqual([]);
    expect(feed.events[0]).toMatchObject({
      type: 'STATUS_CHANGED',
      scope: 'GLOBAL',
      scopeId: null,
      toolName: 'live-jira',
      status: 'DOWN',
      at: clock.now().toISOString(),
      payload: { __typename: 'StatusChangedPayload', previousStatus: null, code: 'BACKEND_FAILED' },
    });
    expect(feed.events[0].id).toMatch(/:STATUS_CHANGED$/);

    // The next change arrives too, once: the relay re-reads a window of the outbox and drops ids it has seen.
    await write('mark-available', { scope: 'GLOBAL', toolName: 'live-jira' });
    await eventually(() => expect(feed.events.map((e) => e.status)).toEqual(['DOWN', 'OK']));
    await sleep(150);
    expect(feed.events).toHaveLength(2);
    expect(feed.events[1].payload).toMatchObject({ previousStatus: 'DOWN' });
  });

  it('starts at the current end of the outbox: earlier changes are not replayed', async () => {
    await write('mark-unavailable', { scope: 'GLOBAL', toolName: 'live-old', code: 'BACKEND_FAILED' });
    clock.advance(1000);
    // P53: a write reaches the outbox through the relay's lease holder, which may be the other
    // instance; "earlier" means already in the outbox when the feed starts.
    for (let i = 0; i < 250; i++) {
      const page = await a.http.get('/v1/events').set('x-api-key', KEYS.audit).expect(200);
      if (page.body.events.some((e: { toolName: string }) => e.toolName === 'live-old')) break;
      await sleep(20);
    }

    const feed = subscribe(client(KEYS.admin));
    await subscribed(1);
    await write('mark-intermittent', { scope: 'GLOBAL', toolName: 'live-new' });

    await eventually(() => expect(feed.events.map((e) => e.toolName)).toContain('live-new'));
    await sleep(150);
    expect(feed.events.map((e) => e.toolName)).toEqual(['live-new']);
  });

  it('applies each filter: tool, scope, scope id and status', async () => {
    const c = client(KEYS.audit);
    const all = subscribe(c);
    const byTool = subscribe(c, { toolName: 'f-jira' });
    const byScope = subscribe(c, { scope: 'TENANT' });
    const byScopeId = subscribe(c, { scope: 'TENANT', scopeId: 't-2' });
    const byStatus = subscribe(c, { status: 'DEGRADED' });
    const combined = subscribe(c, { toolName: 'f-jira', status: 'DOWN' });
    await subscribed(6);

    await write('mark-unavailable', { scope: 'GLOBAL', toolName: 'f-jira', code: 'BACKEND_FAILED' });
    await write('mark-intermittent', { scope: 'TENANT', scopeId: 't-1', toolName: 'f-wiki' });
    await write('mark-unavailable', { scope: 'TENANT', scopeId: 't-2', toolName: 'f-jira', code: 'BACKEND_UNREACHABLE' });
    await write('mark-intermittent', { scope: 'PROJECT', scopeId: 'p-1', toolName: 'f-mail' });

    const key = (e: LiveEvent) => `${e.scope}/${e.scopeId ?? '-'}/${e.toolName}/${e.status}`;
    await eventually(() => expect(all.events).toHaveLength(4));
    await sleep(150); // every feed is served by the same publish; give the socket time to flush

    // One fake instant for all four writes: the outbox orders them by id, so compare as sets.
    const seen = (feed: Feed) => feed.events.map(key).sort();
    const expected = (...keys: string[]) => keys.sort();
    expect(seen(all)).toEqual(
      expected('GLOBAL/-/f-jira/DOWN', 'TENANT/t-1/f-wiki/DEGRADED', 'TENANT/t-2/f-jira/DOWN', 'PROJECT/p-1/f-mail/DEGRADED'),
    );
    expect(seen(byTool)).toEqual(expected('GLOBAL/-/f-jira/DOWN', 'TENANT/t-2/f-jira/DOWN'));
    expect(seen(byScope)).toEqual(expected('TENANT/t-1/f-wiki/DEGRADED', 'TENANT/t-2/f-jira/DOWN'));
    expect(seen(byScopeId)).toEqual(expected('TENANT/t-2/f-jira/DOWN'));
    expect(seen(byStatus)).toEqual(expected('TENANT/t-1/f-wiki/DEGRADED', 'PROJECT/p-1/f-mail/DEGRADED'));
    expect(seen(combined)).toEqual(expected('GLOBAL/-/f-jira/DOWN', 'TENANT/t-2/f-jira/DOWN'));
    for (const feed of [all, byTool, byScope, byScopeId, byStatus, combined]) expect(feed.errors).toEqual([]);
  });

  it('carries cooldown events with their typed payload', async () => {
    const feed = subscribe(client(KEYS.audit), { toolName: 'live-cool' });
    await subscribed(1);

    await b.http
      .post('/v1/cooldowns')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: 'live-cool', errorSignature: 'sig-1', classification: 'INTERMITTENT' })
      .expect((res) => expect(res.status).toBeLessThan(300));

    await eventually(() => expect(feed.events.map((e) => e.type)).toContain('COOLDOWN_SET'));
    const event = feed.events.find((e) => e.type === 'COOLDOWN_SET')!;
    expect(event.payload).toMatchObject({ __typename: 'CooldownPayload', errorSignature: 'sig-1', userId: null });
  });

  it('rejects an invalid filter with BAD_USER_INPUT', async () => {
    const feed = subscribe(client(KEYS.audit), { toolName: 'no spaces allowed' });
    await feed.ended;
    expect(feed.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/toolName/), extensions: { code: 'BAD_USER_INPUT', field: 'toolName' } }),
    ]);
  });

  it('answers unknown fields with a GraphQL validation error, not a close', async () => {
    const c = client(KEYS.audit);
    const errors: unknown[] = [];
    await new Promise<void>((resolve) => {
      c.subscribe(
        { query: 'subscription { toolHealthChanged { nope } }' },
        {
          next: () => undefined,
          error: (e) => {
            errors.push(e);
            resolve();
          },
          complete: resolve,
        },
      );
    });
    expect(errors).toEqual([
      [
        expect.objectContaining({
          message: expect.stringMatching(/nope/),
          extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
        }),
      ],
    ]);
  });

  describe('authentication in connection_init (D17)', () => {
    async function closeCodeOf(key: string | undefined): Promise<{ code: number; reason: string }> {
      const feed = subscribe(client(key));
      await feed.ended;
      expect(feed.errors).toHaveLength(1);
      return feed.errors[0] as { code: number; reason: string };
    }

    it('closes with 4401 without a key', async () => {
      expect(await closeCodeOf(undefined)).toMatchObject({
        code: 4401,
        reason: 'Unauthorized: an API key is required (header x-api-key); send {"x-api-key": "<key>"} in connection_init',
      });
    });

    it('closes with 4401 for an unknown key', async () => {
      expect(await closeCodeOf('not-a-key')).toMatchObject({ code: 4401 });
    });

    it('closes with 4403 for a key without a subscriber role (dispatcher, tool-health-writer)', async () => {
      // P100: the reason names the roles that may subscribe (the playground shows it as it stands).
      expect(await closeCodeOf(KEYS.dispatcher)).toMatchObject({
        code: 4403,
        reason: 'Forbidden: key "dispatcher" may not subscribe (needs one of: admin, audit-reader)',
      });
      expect(await closeCodeOf(KEYS.writer)).toMatchObject({ code: 4403 });
    });

    it('never registers a refused subscriber', async () => {
      await closeCodeOf(KEYS.dispatcher);
      expect(relayA().subscriberCount).toBe(0);
      expect(relayA().isPolling).toBe(false);
    });
  });

  it('stops polling and closes the sockets on shutdown', async () => {
    const c = await createTestApp({ env: { OUTBOX_POLL_MS: '20' }, clock });
    try {
      await c.app.listen(0, '127.0.0.1');
      const { port } = c.app.getHttpServer().address() as { port: number };
      const other = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'x-api-key': KEYS.audit },
        retryAttempts: 0,
      });
      clients.push(other);
      const feed = subscribe(other);
      const relay = c.app.get(OutboxRelay);
      await eventually(() => expect(relay.isPolling).toBe(true));
      await c.close();
      expect(relay.isPolling).toBe(false);
      await feed.ended;
      expect(feed.errors).toEqual([expect.objectContaining({ code: 1001 })]);
    } finally {
      await c.close().catch(() => undefined);
    }
  });

  it('polls only while someone listens, and stops when the last one leaves', async () => {
    expect(relayA().isPolling).toBe(false);
    const feed = subscribe(client(KEYS.audit));
    await subscribed(1);
    expect(relayA().isPolling).toBe(true);
    feed.stop();
    await subscribed(0);
    expect(relayA().isPolling).toBe(false);
  });
});
