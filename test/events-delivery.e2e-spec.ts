import { hashApiKey } from '../src/config/api-keys';
import { HealthEvent } from '../src/domain/health-events';
import { HealthEventOutbox } from '../src/persistence/health-events/health-event.outbox';
import { MongoHealthEventOutbox } from '../src/persistence/health-events/mongo-health-event.outbox';
import { API_KEYS_ENV } from './support/api-keys';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 11, sequences 7–10 (events that arrive, D19 / P53–P55), on the real database, and the
 * consumer test: two instances writing concurrently, one clock 2 s behind, a reader polling
 * `/v1/events` with its cursor throughout.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  id: string;
  type: string;
  toolName: string;
  position: string;
  docId: string;
}

/** A consumer of `/v1/events`: pages on from its cursor, keeps every event it was handed. */
class Reader {
  cursor: string | null = null;
  readonly seen: Seen[] = [];
  constructor(private readonly t: TestApp) {}

  async poll(): Promise<number> {
    let got = 0;
    for (;;) {
      const query = this.cursor === null ? '' : `&after=${encodeURIComponent(this.cursor)}`;
      const page = await this.t.http.get(`/v1/events?limit=500${query}`).set('x-api-key', KEYS.audit).expect(200);
      this.seen.push(...page.body.events);
      got += page.body.events.length;
      if (page.body.endCursor !== null) this.cursor = page.body.endCursor;
      if (page.body.events.length < 500) return got;
    }
  }

  async until(predicate: (seen: Seen[]) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.poll();
      if (predicate(this.seen)) return;
      if (Date.now() > deadline)
        throw new Error(`not seen within ${timeoutMs} ms; seen: ${JSON.stringify(this.seen.map((e) => `${e.type} ${e.toolName}`))}`);
      await sleep(20);
    }
  }
}

const of = (seen: Seen[], toolName: string, type?: string) =>
  seen.filter((e) => e.toolName === toolName && (type === undefined || e.type === type));

describe('events that arrive (issue 11, sequences 7–10)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ clock: new FakeClock('2026-05-23T14:00:05.000Z') });
    // Another instance whose clock runs 2 s behind.
    b = await createTestApp({ clock: new FakeClock('2026-05-23T14:00:03.000Z') });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });
  beforeEach(async () => {
    await resetDatabase(a.connection);
    a.clock.set('2026-05-23T14:00:05.000Z');
    b.clock.set('2026-05-23T14:00:03.000Z');
  });

  const down = (t: TestApp, toolName: string, scope = 'GLOBAL', scopeId?: string) =>
    t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope, scopeId, toolName, code: 'BACKEND_FAILED', source: 'test' })
      .expect(200);
  const gql = async (t: TestApp, query: string, variables: object, key: string = KEYS.admin) => {
    const res = await t.http.post('/graphql').set('x-api-key', key).send({ query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };

  it('7. an event written later by an instance whose clock is behind is not behind the cursor already handed out', async () => {
    const reader = new Reader(a);
    await down(a, 'seq7-first');
    await reader.until((s) => of(s, 'seq7-first').length === 1);
    const cursor = reader.cursor;

    await down(b, 'seq7-late'); // stamped 14:00:03, after a cursor past 14:00:05
    await reader.until((s) => of(s, 'seq7-late').length === 1);
    const late = of(reader.seen, 'seq7-late')[0];
    expect(late.position > cursor!).toBe(true);
  });

  it('8. a document created again after a hard delete or a purge emits events with new ids', async () => {
    const reader = new Reader(a);
    await down(a, 'seq8', 'PROJECT', 'p-1');
    await gql(a, 'mutation($input: HealthKeyInput!) { deleteToolHealth(input: $input) { id } }', {
      input: { scope: 'PROJECT', scopeId: 'p-1', toolName: 'seq8' },
    });
    await down(a, 'seq8', 'PROJECT', 'p-1');
    await reader.until((s) => of(s, 'seq8', 'STATUS_CHANGED').length === 2 && of(s, 'seq8', 'DELETED').length === 1);

    await down(a, 'seq8-purged', 'SESSION', 's-1');
    // A purge skips a document whose events are still pending (P53): the first life is purged
    // once its event is in the log.
    await reader.until((s) => of(s, 'seq8-purged', 'STATUS_CHANGED').length === 1);
    a.clock.advance(3600_000);
    await gql(a, 'mutation($input: PurgeToolHealthInput!) { purgeToolHealth(input: $input) { deleted } }', {
      input: { scope: 'SESSION', olderThan: a.clock.now().toISOString() },
    });
    await down(a, 'seq8-purged', 'SESSION', 's-1');
    await reader.until((s) => of(s, 'seq8-purged', 'STATUS_CHANGED').length === 2);
    const ids = of(reader.seen, 'seq8')
      .concat(of(reader.seen, 'seq8-purged'))
      .map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('10. a cooldown event id is unambiguous when the signature or user id holds ":"', async () => {
    const reader = new Reader(a);
    const key = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'seq10-ids' };
    for (const [errorSignature, userId] of [
      ['x:a', 'b'],
      ['x', 'a:b'],
    ]) {
      await a.http
        .post('/v1/cooldowns')
        .set('x-api-key', KEYS.dispatcher)
        .send({ ...key, errorSignature, userId, classification: 'INTERMITTENT', durationMs: 3600_000 })
        .expect(200);
    }
    // One write ends both: two COOLDOWN_EXPIRED events of the same version.
    await a.http
      .post('/v1/diagnoses')
      .set('x-api-key', KEYS.writer)
      .send({ ...key, classification: 'WORKING', note: 'probe ok', by: 'agrajag-1' })
      .expect(200);
    await reader.until((s) => of(s, 'seq10-ids', 'COOLDOWN_EXPIRED').length === 2);
  });
});

describe('events that arrive: re-sent pins, pins that end (issue 11, sequence 10)', () => {
  let t: TestApp;
  const SECOND_ADMIN = 'test-second-admin-key';

  beforeAll(async () => {
    t = await createTestApp({ env: { PIN_WATCH_MS: '50', API_KEYS: `${API_KEYS_ENV},second:admin:${hashApiKey(SECOND_ADMIN)}` } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  const pin = (key: string) =>
    t.http
      .post('/graphql')
      .set('x-api-key', key)
      .send({
        query: 'mutation($input: PinToolHealthInput!) { pinToolHealth(input: $input) { id history { by note } } }',
        variables: {
          input: { scope: 'GLOBAL', toolName: 'seq10-pin', status: 'OK', until: '2026-05-23T14:30:00.000Z', reason: 'own backend' },
        },
      })
      .expect(200);

  it('the same pin re-sent by another admin writes history and an event', async () => {
    const reader = new Reader(t);
    await pin(KEYS.admin);
    const again = await pin(SECOND_ADMIN);
    expect(again.body.data.pinToolHealth.history.map((h: { by: string }) => h.by)).toEqual(['admin:admin', 'admin:second']);
    await reader.until((s) => of(s, 'seq10-pin', 'PIN_SET').length === 2);
  });

  it('a pin that ends by itself emits PIN_ENDED and records it in the history', async () => {
    const reader = new Reader(t);
    await pin(KEYS.admin);
    t.clock.set('2026-05-23T14:30:00.000Z');
    await reader.until((s) => of(s, 'seq10-pin', 'PIN_ENDED').length === 1);
    const entry = await t.http.get('/v1/entries?scope=GLOBAL&toolName=seq10-pin').set('x-api-key', KEYS.audit).expect(200);
    expect(entry.body.pin).toBeNull();
    expect(entry.body.history.at(-1).note).toMatch(/^pin ended/);
  });
});

/** Fails the first `failures` outbox writes, whatever they are called (the old port had append). */
class FlakyOutbox extends MongoHealthEventOutbox {
  static failures = 0;
  private check(): void {
    if (FlakyOutbox.failures > 0) {
      FlakyOutbox.failures -= 1;
      throw new Error('outbox insert failed (injected)');
    }
  }
  override async insertInOrder(events: Parameters<MongoHealthEventOutbox['insertInOrder']>[0]): Promise<void> {
    this.check();
    return super.insertInOrder(events);
  }
  async append(events: readonly HealthEvent[]): Promise<void> {
    this.check();
    return (MongoHealthEventOutbox.prototype as unknown as { append(e: readonly HealthEvent[]): Promise<void> }).append.call(this, events);
  }
}

describe('events that arrive: the outbox insert fails (issue 11, sequence 9)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ override: (builder) => builder.overrideProvider(HealthEventOutbox).useClass(FlakyOutbox) });
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  it('the write still answers 200, and its event reaches the outbox once the outbox works again', async () => {
    FlakyOutbox.failures = 3;
    const res = await t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: 'seq9', code: 'BACKEND_FAILED', source: 'test' });
    expect(res.status).toBe(200);
    const reader = new Reader(t);
    await reader.until((s) => of(s, 'seq9', 'STATUS_CHANGED').length === 1);
    expect(FlakyOutbox.failures).toBe(0);
  });
});

describe('consumer: two instances, one clock 2 s behind, a reader polling throughout', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ clock: new FakeClock('2026-05-23T14:00:05.000Z') });
    b = await createTestApp({ clock: new FakeClock('2026-05-23T14:00:03.000Z') });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('sees every event of every write, none behind a cursor it was handed; duplicates counted', async () => {
    await resetDatabase(a.connection);
    const reader = new Reader(a);
    let writing = true;
    const polling = (async () => {
      while (writing) {
        await reader.poll();
        await sleep(5);
      }
    })();

    const PER_INSTANCE = 30;
    const SHARED = 10;
    const writes: Promise<unknown>[] = [];
    for (const [name, t] of [
      ['a', a],
      ['b', b],
    ] as const) {
      for (let i = 0; i < PER_INSTANCE; i++) {
        writes.push(
          t.http
            .post('/v1/health/mark-unavailable')
            .set('x-api-key', KEYS.dispatcher)
            .send({ scope: 'PROJECT', scopeId: `p-${name}`, toolName: `c-${name}-${i}`, code: 'BACKEND_FAILED', source: name })
            .expect(200),
        );
      }
      for (let i = 0; i < SHARED; i++) {
        // Both instances diagnose one shared key: each verdict is a new lastDiagnosis (INBOX_ITEM).
        writes.push(
          t.http
            .post('/v1/diagnoses')
            .set('x-api-key', KEYS.writer)
            .send({
              scope: 'GLOBAL',
              toolName: 'c-shared',
              classification: 'TECHNICALLY_BROKEN',
              note: `${name}-${i}`,
              by: `agrajag-${name}-${i}`,
            })
            .expect(200),
        );
      }
    }
    await Promise.all(writes);
    // Until the relay has moved every pending event (no document holds one), then a little more.
    const documents = a.connection.db!.collection('tool_health');
    for (let i = 0; i < 250 && (await documents.countDocuments({ 'pendingEvents.0': { $exists: true } })) > 0; i++) await sleep(20);
    await sleep(300);
    writing = false;
    await polling;
    await reader.poll();

    const expected =
      2 * PER_INSTANCE /* STATUS_CHANGED, one per new document */ +
      2 * SHARED /* INBOX_ITEM */ +
      1; /* the shared key's first STATUS_CHANGED */
    const ids = reader.seen.map((e) => e.id);
    const distinct = new Set(ids);
    const duplicates = ids.length - distinct.size;
    const stored = await a.connection.db!.collection('health_events').countDocuments();
    const pending = await a.connection.db!.collection('tool_health').countDocuments({ 'pendingEvents.0': { $exists: true } });
    console.log(
      `consumer: ${distinct.size} distinct events seen of ${expected} expected, ${duplicates} duplicate(s), ${stored} in the outbox, ${pending} document(s) still pending`,
    );
    expect(distinct.size).toBe(expected);
    expect(stored).toBe(expected);
    expect(pending).toBe(0);
    // Positions only grow along what the reader was handed.
    const positions = reader.seen.map((e) => e.position);
    expect([...positions].sort()).toEqual(positions);
    expect(of(reader.seen, 'c-shared', 'INBOX_ITEM')).toHaveLength(2 * SHARED);
  });
});
