import { EventRelay } from '../src/write-path/event-relay.service';
import { WebhookDispatcher } from '../src/features/webhooks/webhook-dispatcher.service';
import { HostResolver, ResolvedAddress } from '../src/features/webhooks/webhook-sender';
import { WebhookEndpointRepository } from '../src/persistence/webhook-endpoints/webhook-endpoint.repository';
import { RETRY_GIVE_UP_MS, RETRY_JITTER, retryDelayMs } from '../src/domain/webhooks';
import { HOSTILE_RESOLVED_ADDRESSES, HOSTILE_URL_HOSTS } from './factories/hostile-targets';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';
import { Received, Receiver, verify } from './support/webhook-receiver';

/**
 * D24 (P180–P189): signed webhooks on the real database, to a receiver in the test (a local HTTP
 * server on 127.0.0.1) that verifies every delivery with the `standardwebhooks` library.
 */

describe('signed webhooks (D24)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let url: string;
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_LEASE_MS: '5000' } });
    dispatcher = t.app.get(WebhookDispatcher);
    dispatcher.random = () => 0.5; // no jitter unless a test sets it
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterEach(() => receiver.stop());

  const admin = () => ({ 'x-api-key': KEYS.admin });
  const register = async (body: Record<string, unknown> = {}) => {
    const res = await t.http
      .post('/v1/webhook-endpoints')
      .set(admin())
      .send({ url, ...body })
      .expect(201);
    return res.body as { endpoint: { id: string } & Record<string, unknown>; secret: string };
  };
  const markDown = (toolName = 'jira_search', extra: Record<string, unknown> = {}) =>
    t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName, code: 'BACKEND_UNREACHABLE', source: 'probe', ...extra })
      .expect(200);
  const deliver = async () => {
    await t.app.get(EventRelay).drain();
    await dispatcher.runOnce();
  };
  const endpointOf = async (id: string) => (await t.http.get(`/v1/webhook-endpoints/${id}`).set('x-api-key', KEYS.audit).expect(200)).body;
  const deliveriesOf = async (id: string) =>
    (await t.http.get(`/v1/webhook-endpoints/${id}/deliveries`).set('x-api-key', KEYS.audit).expect(200)).body as {
      id: string;
      eventId: string | null;
      state: string;
      attempts: { trigger: string; statusCode: number | null; error: string | null; latencyMs: number; responseExcerpt: string | null }[];
    }[];
  const events = async () =>
    (await t.http.get('/v1/events?limit=500').set('x-api-key', KEYS.audit).expect(200)).body.events as {
      id: string;
      type: string;
      payload: Record<string, unknown>;
    }[];

  it('registers an endpoint, shows its secret once, and delivers a signed event the library verifies', async () => {
    const { endpoint, secret } = await register({ description: 'on-call' });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url, description: 'on-call', enabled: true, format: 'STANDARD', eventTypes: [], by: 'admin:admin' });

    await markDown();
    await deliver();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const payload = verify(secret, got, t.clock);
    expect(payload).toMatchObject({ type: 'STATUS_CHANGED', data: { toolName: 'jira_search', status: 'DOWN', scope: 'GLOBAL' } });
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(got.headers['content-type']).toBe('application/json');

    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ id: got.headers['webhook-id'], state: 'DELIVERED', eventId: (payload.data as { id: string }).id });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ trigger: 'DELIVERY', statusCode: 200, error: null, responseExcerpt: 'thanks' }),
    ]);

    // Delivered once: another pass sends nothing.
    await deliver();
    expect(receiver.received).toHaveLength(1);
  });

  it('an endpoint gets only the events registered after it, in order', async () => {
    await markDown('before_registration');
    await t.app.get(EventRelay).drain();
    const { secret } = await register();
    for (const tool of ['a_tool', 'b_tool', 'c_tool']) await markDown(tool);
    await deliver();
    expect(receiver.received.map((r) => (verify(secret, r, t.clock).data as { toolName: string }).toolName)).toEqual([
      'a_tool',
      'b_tool',
      'c_tool',
    ]);
  });

  it('the secret never appears in any read: REST, GraphQL, deliveries, events', async () => {
    const { endpoint, secret } = await register();
    const rotated = (await t.http.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).set(admin()).expect(200)).body
      .secret as string;
    await markDown();
    await deliver();
    await t.http.post(`/v1/webhook-endpoints/${endpoint.id}/ping`).set(admin()).expect(200);
    const reads = [
      await t.http.get('/v1/webhook-endpoints').set('x-api-key', KEYS.audit).expect(200),
      await t.http.get(`/v1/webhook-endpoints/${endpoint.id}`).set(admin()).expect(200),
      await t.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(admin()).expect(200),
      await t.http.get('/v1/events?limit=500').set(admin()).expect(200),
      await t.http
        .post('/graphql')
        .set(admin())
        .send({
          query: `{ webhookEndpoints { id url previousSecretValidUntil } webhookEndpoint(id: "${endpoint.id}") { id }
                    webhookDeliveries(endpointId: "${endpoint.id}") { id attempts { error responseExcerpt } } }`,
        })
        .expect(200),
    ];
    for (const read of reads) {
      expect(read.text).not.toContain(secret.slice('whsec_'.length));
      expect(read.text).not.toContain(rotated.slice('whsec_'.length));
      expect(read.text).not.toContain('whsec_');
    }
    expect(reads[4].body.errors).toBeUndefined();
    expect(reads[4].body.data.webhookEndpoints[0].previousSecretValidUntil).toBe('2026-05-24T14:00:00.000Z');
  });

  it('after a rotation deliveries carry both signatures for 24 h: each secret verifies them alone', async () => {
    const { endpoint, secret } = await register();
    const rotated = (await t.http.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).set(admin()).expect(200)).body
      .secret as string;
    expect(rotated).not.toBe(secret);
    await markDown('one');
    await deliver();
    expect(String(receiver.received[0].headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verify(secret, receiver.received[0], t.clock)).not.toThrow();
    expect(() => verify(rotated, receiver.received[0], t.clock)).not.toThrow();

    t.clock.advance(24 * 3_600_000);
    await markDown('two');
    await deliver();
    expect(String(receiver.received[1].headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verify(rotated, receiver.received[1], t.clock)).not.toThrow();
    expect(() => verify(secret, receiver.received[1], t.clock)).toThrow(/No matching signature/);
  });

  it('filters: event types, tools, scopes', async () => {
    const byTool = await register({ toolNames: ['jira_search'] });
    const byType = await register({ eventTypes: ['PIN_SET'] });
    const byScope = await register({ scopes: ['USER'] });
    await markDown('jira_search');
    await markDown('confluence');
    await markDown('confluence', { scope: 'USER', scopeId: 'alice' });
    await t.http
      .post('/graphql')
      .set(admin())
      .send({
        query: 'mutation($i: PinToolHealthInput!) { pinToolHealth(input: $i) { id } }',
        variables: { i: { scope: 'GLOBAL', toolName: 'confluence', status: 'OK', until: '2026-05-23T18:00:00Z', reason: 'known good' } },
      })
      .expect(200);
    await deliver();
    const got = (id: string, secret: string) =>
      receiver.received
        .filter((r) => r.headers['webhook-id'] && deliveredTo(r, id))
        .map((r) => verify(secret, r, t.clock) as { type: string; data: { toolName: string; scope: string } })
        .map((p) => `${p.type} ${p.data.toolName} ${p.data.scope}`);
    // Each endpoint has its own webhook ids; tell requests apart by the deliveries log.
    const ids = new Map<string, Set<string>>();
    for (const e of [byTool, byType, byScope]) ids.set(e.endpoint.id, new Set((await deliveriesOf(e.endpoint.id)).map((d) => d.id)));
    const deliveredTo = (r: Received, id: string) => ids.get(id)!.has(String(r.headers['webhook-id']));
    expect(got(byTool.endpoint.id, byTool.secret)).toEqual(['STATUS_CHANGED jira_search GLOBAL']);
    expect(got(byType.endpoint.id, byType.secret)).toEqual(['PIN_SET confluence GLOBAL']);
    expect(got(byScope.endpoint.id, byScope.secret)).toEqual(['STATUS_CHANGED confluence USER']);
    expect(receiver.received).toHaveLength(3);
  });

  it('a tenant filter takes events of TENANT entries and of entries whose stored tenant it is', async () => {
    const { secret } = await register({ tenantIds: ['acme'] });
    await markDown('at_tenant', { scope: 'TENANT', scopeId: 'acme' });
    await markDown('other_tenant', { scope: 'TENANT', scopeId: 'globex' });
    await markDown('user_of_acme', { scope: 'USER', scopeId: 'alice', tenantId: 'acme' });
    await markDown('user_of_globex', { scope: 'USER', scopeId: 'bob', tenantId: 'globex' });
    await markDown('global');
    await deliver();
    expect(receiver.received.map((r) => (verify(secret, r, t.clock).data as { toolName: string }).toolName)).toEqual([
      'at_tenant',
      'user_of_acme',
    ]);
  });

  it('a disabled endpoint gets nothing; enabled again it resumes with the event that failed, then the rest in order', async () => {
    const { endpoint, secret } = await register();
    receiver.answer = 500;
    await markDown('first');
    await deliver();
    const toolOf = (r: Received) => (verify(secret, r, t.clock).data as { toolName: string }).toolName;
    expect(toolOf(receiver.received[0])).toBe('first');
    await t.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set(admin()).send({ enabled: false }).expect(200);
    receiver.answer = 200;
    await markDown('second');
    t.clock.advance(3_600_000);
    await deliver();
    expect(receiver.received).toHaveLength(1);
    const enabled = await t.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set(admin()).send({ enabled: true }).expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, nextRetryAt: null, disabledAt: null });
    await dispatcher.runOnce();
    expect(receiver.received.slice(1).map(toolOf)).toEqual(['first', 'second']);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
  });

  it('one pass reads on past a full page of events the filters drop', async () => {
    const { endpoint, secret } = await register({ toolNames: ['wanted'] });
    for (let i = 0; i < 150; i++) await markDown(`noise_${i}`);
    await markDown('wanted');
    await deliver();
    expect(receiver.received.map((r) => (verify(secret, r, t.clock).data as { toolName: string }).toolName)).toEqual(['wanted']);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.state)).toEqual(['DELIVERED']);
  });

  it('a SLACK endpoint gets one line of text', async () => {
    const { secret } = await register({ format: 'SLACK', timeZone: 'Europe/Berlin' });
    await markDown('jira_search', { expectedRecoveryAt: '2026-05-23T14:30:00Z' });
    await deliver();
    expect(verify(secret, receiver.received[0], t.clock)).toEqual({
      text: 'jira_search is DOWN for everyone: backend unreachable. Expected back at 16:30 CEST. By system:probe.',
    });
  });

  it('a diagnosis is one Slack post, with its class, note and writer; a STANDARD endpoint gets every event of it', async () => {
    const slack = await register({ format: 'SLACK', timeZone: 'UTC' });
    const standard = await register();
    await t.http
      .post('/v1/diagnoses')
      .set('x-api-key', KEYS.writer)
      .send({
        scope: 'GLOBAL',
        toolName: 'jira_search',
        classification: 'TECHNICALLY_BROKEN',
        note: 'MCP connection closed',
        by: 'agrajag-7',
        expectedRecoveryAt: '2026-05-23T15:00:00Z',
      })
      .expect(200);
    await deliver();
    const bodies = (secret: string) =>
      receiver.received.filter((r) => {
        try {
          verify(secret, r, t.clock);
          return true;
        } catch {
          return false;
        }
      });
    const posts = bodies(slack.secret).map((r) => verify(slack.secret, r, t.clock));
    expect(posts).toEqual([
      { text: 'jira_search is DOWN for everyone: technically broken — MCP connection closed. Expected back at 15:00 UTC. By agrajag-7.' },
    ]);
    const types = bodies(standard.secret).map((r) => (verify(standard.secret, r, t.clock) as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['STATUS_CHANGED', 'INBOX_ITEM']));
    expect(types.length).toBeGreaterThan(1);
  });

  it('a Slack channel that asked for inbox items alone still gets them: nothing there tells it', async () => {
    const inbox = await register({ format: 'SLACK', timeZone: 'UTC', eventTypes: ['INBOX_ITEM'] });
    await t.http
      .post('/v1/diagnoses')
      .set('x-api-key', KEYS.writer)
      .send({
        scope: 'GLOBAL',
        toolName: 'jira_search',
        classification: 'TECHNICALLY_BROKEN',
        note: 'MCP connection closed',
        by: 'agrajag-7',
      })
      .expect(200);
    await deliver();
    expect(receiver.received.map((r) => verify(inbox.secret, r, t.clock))).toEqual([
      { text: 'jira_search is DOWN for everyone: technically broken — MCP connection closed. Diagnosed by agrajag-7.' },
    ]);
  });

  it('a receiver answering 500 gets retries on the schedule for 24 h; then the endpoint is disabled with an event', async () => {
    const { endpoint, secret } = await register();
    // Another endpoint, at another receiver, wants to know when an endpoint is disabled.
    const watcher = new Receiver();
    const watching = await register({ url: await watcher.start(), eventTypes: ['WEBHOOK_ENDPOINT_DISABLED'] });
    receiver.answer = 500;
    await markDown();
    const start = t.clock.now().getTime();
    await deliver();
    const gaps: number[] = [];
    for (let i = 1; i < 40; i++) {
      const state = await endpointOf(endpoint.id);
      if (!state.enabled) break;
      const due = new Date(state.nextRetryAt).getTime();
      gaps.push(due - t.clock.now().getTime());
      // Not before it is due: a pass a second early sends nothing.
      t.clock.set(new Date(due - 1000));
      await dispatcher.runOnce();
      expect(receiver.received).toHaveLength(i);
      t.clock.set(new Date(due));
      await dispatcher.runOnce();
      expect(receiver.received).toHaveLength(i + 1);
      verify(secret, receiver.received[i], t.clock); // each attempt signed, stamped with its own time
    }
    // The documented schedule (P184): 10 s doubling to 4 h, the last at the 24 h mark.
    const expected = gaps.map((_, i) => retryDelayMs(i + 1));
    expect(gaps.slice(0, -1)).toEqual(expected.slice(0, -1));
    expect(t.clock.now().getTime() - start).toBe(RETRY_GIVE_UP_MS);
    expect(receiver.received).toHaveLength(17);
    // Every attempt of the one event: the same webhook-id.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);

    const disabled = await endpointOf(endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, nextRetryAt: null });
    expect(disabled.disabledReason).toMatch(/HTTP 500/);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.state).toBe('FAILED');
    expect(delivery.attempts).toHaveLength(17);
    expect(delivery.attempts.map((a) => a.trigger)).toEqual(['DELIVERY', ...Array(16).fill('RETRY')]);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 500, error: 'HTTP 500', responseExcerpt: 'receiver says no' });
    await t.app.get(EventRelay).drain();
    const said = (await events()).filter((e) => e.type === 'WEBHOOK_ENDPOINT_DISABLED');
    expect(said).toEqual([expect.objectContaining({ payload: expect.objectContaining({ endpointId: endpoint.id, attempts: 17 }) })]);

    // The watcher is told, signed like any delivery.
    await dispatcher.runOnce();
    await watcher.stop();
    expect(watcher.received).toHaveLength(1);
    expect(verify(watching.secret, watcher.received[0], t.clock)).toMatchObject({
      type: 'WEBHOOK_ENDPOINT_DISABLED',
      data: { toolName: '', payload: { endpointId: endpoint.id, attempts: 17, failingSince: new Date(start).toISOString() } },
    });

    // Disabled: nothing more is sent.
    t.clock.advance(3_600_000);
    await dispatcher.runOnce();
    expect(receiver.received).toHaveLength(17);
  });

  it('retries are jittered within ±20 %', async () => {
    const { endpoint } = await register();
    receiver.answer = 500;
    dispatcher.random = () => 0.999;
    try {
      await markDown();
      await deliver();
      const state = await endpointOf(endpoint.id);
      const gap = new Date(state.nextRetryAt).getTime() - t.clock.now().getTime();
      expect(gap).toBeGreaterThan(retryDelayMs(1));
      expect(gap).toBeLessThanOrEqual(retryDelayMs(1) * (1 + RETRY_JITTER));
    } finally {
      dispatcher.random = () => 0.5;
    }
  });

  it('a receiver that does not answer in time, or refuses the connection, is retried too', async () => {
    const hanging = await register();
    receiver.answer = 'hang';
    await markDown();
    await deliver();
    let [delivery] = await deliveriesOf(hanging.endpoint.id);
    expect(delivery).toMatchObject({ state: 'RETRYING' });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'no answer within 500 ms' });
    expect((await endpointOf(hanging.endpoint.id)).nextRetryAt).toBe(new Date(t.clock.now().getTime() + retryDelayMs(1)).toISOString());
    await t.http.delete(`/v1/webhook-endpoints/${hanging.endpoint.id}`).set(admin()).expect(200);

    const closed = new Receiver();
    const closedUrl = await closed.start();
    await closed.stop();
    const refused = await register({ url: closedUrl });
    await markDown('other');
    await deliver();
    [delivery] = await deliveriesOf(refused.endpoint.id);
    expect(delivery).toMatchObject({ state: 'RETRYING' });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'no answer: ECONNREFUSED' });
  });

  it('a redirect is not followed: a 3xx is a failed attempt', async () => {
    const { endpoint } = await register();
    receiver.answer = 302;
    await markDown();
    await deliver();
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 302, error: expect.stringMatching(/^HTTP 302: redirects are not followed/) });
    expect(receiver.received).toHaveLength(1);
  });

  it('a crash between the send and recording it sends the event again, with the same webhook-id', async () => {
    const { secret } = await register();
    const repository = t.app.get(WebhookEndpointRepository);
    const crash = jest.spyOn(repository, 'advance').mockRejectedValueOnce(new Error('process died before recording'));
    try {
      await markDown();
      await deliver();
      expect(receiver.received).toHaveLength(1);
      await dispatcher.runOnce();
    } finally {
      crash.mockRestore();
    }
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    expect(verify(secret, receiver.received[1], t.clock)).toEqual(verify(secret, receiver.received[0], t.clock));
    await dispatcher.runOnce();
    expect(receiver.received).toHaveLength(2);
  });

  it('resend sends one delivery again with its webhook-id; ping sends a signed WEBHOOK_PING', async () => {
    const { endpoint, secret } = await register();
    await markDown();
    await deliver();
    const [first] = await deliveriesOf(endpoint.id);
    const resent = await t.http.post(`/v1/webhook-deliveries/${first.id}/resend`).set(admin()).expect(200);
    expect(resent.body.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['DELIVERY', 'RESEND']);
    expect(receiver.received[1].headers['webhook-id']).toBe(first.id);
    verify(secret, receiver.received[1], t.clock);

    const ping = await t.http.post(`/v1/webhook-endpoints/${endpoint.id}/ping`).set(admin()).expect(200);
    expect(ping.body).toMatchObject({ eventType: 'WEBHOOK_PING', eventId: null, state: 'DELIVERED' });
    expect(ping.body.attempts[0]).toMatchObject({ trigger: 'PING', statusCode: 200 });
    expect(verify(secret, receiver.received[2], t.clock)).toMatchObject({ type: 'WEBHOOK_PING', data: { endpointId: endpoint.id } });
    await t.http.post('/v1/webhook-deliveries/msg_nothing/resend').set(admin()).expect(404);
  });

  it('GraphQL: create (the secret once), change, rotate, ping, read deliveries', async () => {
    const gql = async (query: string, variables: Record<string, unknown> = {}, key: string = KEYS.admin) => {
      const res = await t.http.post('/graphql').set('x-api-key', key).send({ query, variables }).expect(200);
      expect(res.body.errors).toBeUndefined();
      return res.body.data;
    };
    const created = await gql(
      'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret endpoint { id url eventTypes format enabled } } }',
      { i: { url, eventTypes: ['STATUS_CHANGED'], format: 'STANDARD', description: null } },
    );
    const { id } = created.createWebhookEndpoint.endpoint;
    expect(created.createWebhookEndpoint).toMatchObject({
      secret: expect.stringMatching(/^whsec_/),
      endpoint: { url, eventTypes: ['STATUS_CHANGED'], enabled: true },
    });
    const changed = await gql('mutation($i: ChangeWebhookEndpointInput!) { changeWebhookEndpoint(input: $i) { toolNames description } }', {
      i: { id, toolNames: ['jira_search'], description: 'graphql' },
    });
    expect(changed.changeWebhookEndpoint).toEqual({ toolNames: ['jira_search'], description: 'graphql' });
    const rotated = await gql(`mutation { rotateWebhookSecret(id: "${id}") { secret endpoint { previousSecretValidUntil } } }`);
    expect(rotated.rotateWebhookSecret.secret).not.toBe(created.createWebhookEndpoint.secret);
    const ping = await gql(`mutation { pingWebhookEndpoint(id: "${id}") { id state attempts { trigger statusCode } } }`);
    expect(ping.pingWebhookEndpoint).toMatchObject({ state: 'DELIVERED', attempts: [{ trigger: 'PING', statusCode: 200 }] });
    verify(rotated.rotateWebhookSecret.secret, receiver.received[0], t.clock);
    verify(created.createWebhookEndpoint.secret, receiver.received[0], t.clock);
    const read = await gql(`{ webhookDeliveries(endpointId: "${id}") { id eventType } }`, {}, KEYS.audit);
    expect(read.webhookDeliveries).toEqual([{ id: ping.pingWebhookEndpoint.id, eventType: 'WEBHOOK_PING' }]);
    const denied = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.audit)
      .send({ query: `mutation { rotateWebhookSecret(id: "${id}") { secret } }` });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('audit-readers read endpoints and deliveries; only admins change them', async () => {
    const { endpoint } = await register();
    await t.http.get('/v1/webhook-endpoints').set('x-api-key', KEYS.audit).expect(200);
    await t.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set('x-api-key', KEYS.audit).expect(200);
    await t.http.post('/v1/webhook-endpoints').set('x-api-key', KEYS.audit).send({ url }).expect(403);
    await t.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set('x-api-key', KEYS.audit).send({ enabled: false }).expect(403);
    await t.http.post(`/v1/webhook-endpoints/${endpoint.id}/ping`).set('x-api-key', KEYS.audit).expect(403);
    await t.http.get('/v1/webhook-endpoints').set('x-api-key', KEYS.dispatcher).expect(403);
  });

  it('bad input is a 400 naming the field', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await t.http.post('/v1/webhook-endpoints').set(admin()).send(body).expect(400);
      expect(JSON.stringify(res.body)).toContain(field);
    };
    await bad({}, 'url');
    await bad({ url: 'ftp://example.com/' }, 'url');
    await bad({ url: 'not a url' }, 'url');
    await bad({ url, eventTypes: ['NOPE'] }, 'eventTypes');
    await bad({ url, toolNames: ['bad name!'] }, 'toolNames');
    await bad({ url, timeZone: 'Mars/Olympus' }, 'timeZone');
    await bad({ url, format: 'XML' }, 'format');
    await bad({ url: 42 }, 'url');
    await bad({ url, eventTypes: 'STATUS_CHANGED' }, 'eventTypes');
    await bad({ url, toolNames: [1] }, 'toolNames');
    await bad({ url, enabled: 'yes' }, 'enabled');
    await bad({ url, description: 'x'.repeat(501) }, 'description');
    await bad({ url, scopes: Array(101).fill('USER') }, 'scopes');
    const { endpoint } = await register();
    const patch = (_: null) => t.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set(admin()).set('content-type', 'application/json');
    expect(JSON.stringify((await patch(null).send('{"url":"gopher://x"}').expect(400)).body)).toContain('url');
    expect(JSON.stringify((await patch(null).send('{"timeZone":"Nowhere/City"}').expect(400)).body)).toContain('timeZone');
    await patch(null).send('null').expect(200);
    await patch(null).send('[]').expect(400);
    for (const q of ['limit=abc', 'limit=0', 'limit=501']) {
      expect(JSON.stringify((await t.http.get(`/v1/webhook-endpoints?${q}`).set(admin()).expect(400)).body)).toContain('limit');
      expect(
        JSON.stringify((await t.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?${q}`).set(admin()).expect(400)).body),
      ).toContain('limit');
    }
    const gql = await t.http
      .post('/graphql')
      .set(admin())
      .send({ query: 'mutation { createWebhookEndpoint(input: {url: "file:///etc/passwd"}) { secret } }' })
      .expect(200);
    expect(gql.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^url: /), extensions: { code: 'BAD_USER_INPUT' } });
    await t.http.get('/v1/webhook-endpoints/no-such-endpoint').set(admin()).expect(404);
    await t.http
      .get(`/v1/webhook-endpoints/${'x'.repeat(90)}`)
      .set(admin())
      .expect(404);
    await t.http.post('/v1/webhook-endpoints/%00/ping').set(admin()).expect(404);
    await t.http.patch('/v1/webhook-endpoints/no-such-endpoint').set(admin()).send({ enabled: false }).expect(404);
  });
});

describe('webhook targets in production (P185)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { NODE_ENV: 'production', WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '1000' },
      override: (builder) => builder.overrideProvider(HostResolver).useValue(new TableResolver()),
    });
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('private and loopback targets are refused when saved and, for a name that resolves to one, at every delivery', async () => {
    expect(t.config.webhookAllowPrivateTargets).toBe(false);
    for (const target of [url, 'http://10.0.0.1/hook', 'http://[::1]/hook', 'http://localhost/hook', 'http://169.254.169.254/latest']) {
      const res = await t.http.post('/v1/webhook-endpoints').set('x-api-key', KEYS.admin).send({ url: target }).expect(400);
      expect(res.body.message).toMatch(/^url: points at a private or loopback address/);
    }
    // A name is resolved and checked at every delivery: saved while public, it later resolves to loopback (rebinding).
    const port = new URL(url).port;
    const created = await t.http
      .post('/v1/webhook-endpoints')
      .set('x-api-key', KEYS.admin)
      .send({ url: `http://hooks.example.test:${port}/hook` })
      .expect(201);
    const ping = async () =>
      (await t.http.post(`/v1/webhook-endpoints/${created.body.endpoint.id}/ping`).set('x-api-key', KEYS.admin).expect(200)).body;
    TableResolver.table.set('hooks.example.test', ['93.184.216.34', '127.0.0.1']);
    const refused = await ping();
    expect(refused.state).toBe('FAILED');
    expect(refused.attempts[0].error).toBe(
      'refused: the host resolves to 127.0.0.1, a private or loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)',
    );
    expect(receiver.received).toHaveLength(0);
  });

  it('every spelling of an internal or special-purpose target is refused at save, and every such resolved address at the attempt', async () => {
    for (const host of HOSTILE_URL_HOSTS) {
      const res = await t.http
        .post('/v1/webhook-endpoints')
        .set('x-api-key', KEYS.admin)
        .send({ url: `http://${host}:8080/hook` });
      expect([host, res.status, res.body.message]).toEqual([
        host,
        400,
        expect.stringMatching(/^url: points at a private or loopback address/),
      ]);
    }
    const port = new URL(url).port;
    const created = await t.http
      .post('/v1/webhook-endpoints')
      .set('x-api-key', KEYS.admin)
      .send({ url: `http://Rebind.Example.Test.:${port}/hook` })
      .expect(201);
    for (const address of HOSTILE_RESOLVED_ADDRESSES) {
      TableResolver.table.set('rebind.example.test', [address]);
      const attempt = (await t.http.post(`/v1/webhook-endpoints/${created.body.endpoint.id}/ping`).set('x-api-key', KEYS.admin).expect(200))
        .body.attempts[0];
      expect([address, attempt.error]).toEqual([
        address,
        expect.stringMatching(/^refused: the host resolves to .*, a private or loopback address/),
      ]);
    }
    expect(receiver.received).toHaveLength(0);
  });
});

/** Host names the test decides; the service connects to the address it was given (not a second lookup). */
class TableResolver extends HostResolver {
  static readonly table = new Map<string, string[]>();
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const addresses = TableResolver.table.get(host);
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }
}

describe('connecting to the address checked (P185)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({
      env: { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '1000' },
      override: (builder) => builder.overrideProvider(HostResolver).useValue(new TableResolver()),
    });
    receiver = new Receiver();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('a host name is resolved once per attempt and the request goes to that address, under its own Host', async () => {
    const port = new URL(await receiver.start()).port;
    TableResolver.table.set('receiver.example.test', ['127.0.0.1']);
    const created = await t.http
      .post('/v1/webhook-endpoints')
      .set('x-api-key', KEYS.admin)
      .send({ url: `http://receiver.example.test:${port}/hook?team=ops` })
      .expect(201);
    const ping = await t.http.post(`/v1/webhook-endpoints/${created.body.endpoint.id}/ping`).set('x-api-key', KEYS.admin).expect(200);
    expect(ping.body.state).toBe('DELIVERED');
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].headers.host).toBe(`receiver.example.test:${port}`);
    TableResolver.table.delete('receiver.example.test');
    const unresolved = await t.http.post(`/v1/webhook-endpoints/${created.body.endpoint.id}/ping`).set('x-api-key', KEYS.admin).expect(200);
    expect(unresolved.body.attempts[0].error).toBe('the host name did not resolve (ENOTFOUND)');
  });
});

describe('two instances on one database (P183)', () => {
  let one: TestApp;
  let two: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    const env = { WEBHOOK_POLL_MS: '20', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_MS: '5000', EVENT_RELAY_POLL_MS: '20' };
    one = await createTestApp({ env });
    two = await createTestApp({ env });
    await resetDatabase(one.connection);
    receiver = new Receiver();
  });
  afterAll(async () => {
    await receiver.stop();
    await one.close();
    await two.close();
  });

  it('deliver each event once', async () => {
    const url = await receiver.start();
    const created = await one.http.post('/v1/webhook-endpoints').set('x-api-key', KEYS.admin).send({ url }).expect(201);
    const secret = created.body.secret as string;
    const tools = Array.from({ length: 12 }, (_, i) => `tool_${i}`);
    for (const [i, toolName] of tools.entries()) {
      await (i % 2 ? one : two).http
        .post('/v1/health/mark-unavailable')
        .set('x-api-key', KEYS.dispatcher)
        .send({ scope: 'GLOBAL', toolName, code: 'BACKEND_UNREACHABLE', source: 'probe' })
        .expect(200);
    }
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < tools.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Passes of both instances go on for a while: none sends an event again.
    await new Promise((r) => setTimeout(r, 500));
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(tools.length);
    expect(new Set(ids).size).toBe(tools.length);
    const delivered = receiver.received.map((r) => (verify(secret, r, one.clock).data as { toolName: string }).toolName);
    expect([...delivered].sort()).toEqual([...tools].sort());
  });
});

describe('shutdown during a delivery (P183)', () => {
  it('an attempt cut short by the shutdown is not logged as the receiver’s failure; the next holder sends it again', async () => {
    const env = { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '30000' };
    const leaving = await createTestApp({ env });
    await resetDatabase(leaving.connection);
    const receiver = new Receiver();
    const url = await receiver.start();
    let staying: TestApp | undefined;
    try {
      const created = await leaving.http.post('/v1/webhook-endpoints').set('x-api-key', KEYS.admin).send({ url }).expect(201);
      receiver.answer = 'hang';
      await leaving.http
        .post('/v1/health/mark-unavailable')
        .set('x-api-key', KEYS.dispatcher)
        .send({ scope: 'GLOBAL', toolName: 'jira_search', code: 'BACKEND_UNREACHABLE', source: 'probe' })
        .expect(200);
      await leaving.app.get(EventRelay).drain();
      const pass = leaving.app.get(WebhookDispatcher).runOnce();
      while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 20));
      await leaving.close(); // aborts the hanging attempt
      await pass;

      staying = await createTestApp({ env });
      const id = created.body.endpoint.id as string;
      const audit = (path: string) => staying!.http.get(path).set('x-api-key', KEYS.audit).expect(200);
      expect((await audit(`/v1/webhook-endpoints/${id}/deliveries`)).body).toEqual([]);
      expect((await audit(`/v1/webhook-endpoints/${id}`)).body.nextRetryAt).toBeNull();
      // The instance that left released its lease: another takes over at once, not after WEBHOOK_LEASE_MS.
      receiver.answer = 200;
      await staying.app.get(WebhookDispatcher).runOnce();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
      expect((await audit(`/v1/webhook-endpoints/${id}/deliveries`)).body[0].state).toBe('DELIVERED');
    } finally {
      await receiver.stop();
      await staying?.close();
    }
  });
});
