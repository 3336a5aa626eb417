import { CommandStartedEvent } from 'mongodb';
import { WiderEvidenceService } from '../src/features/wider-evidence/wider-evidence.service';
import { settledEventLog } from './support/event-log';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 16: wider evidence on the real database — 4 users give no signal, the 5th in a 3rd
 * project does (counts, wider coalescing key, one event per window); 403s never count; two
 * instances share the counting through the buckets; the window slides past old failures; the
 * failure path writes nothing until a flush, and a flush is one bulk write.
 */
const TOOL = 'jira_search';
const START = '2026-05-23T14:00:10.000Z';
// A long flush interval: the tests flush by hand, so nothing happens behind their back.
const ENV = { WIDER_EVIDENCE_FLUSH_MS: '60000', MAINTENANCE_TICK_MS: '0' };
const MIN = 60_000;

type Answer = {
  spawn: boolean;
  reason: string;
  coalescingKey: string;
  widerEvidence: null | { scope: string; scopeId: string | null; distinctUsers: number; distinctProjects: number; since: string };
};

function failing(t: TestApp) {
  return async (userId: string, projectId: string, extra: Record<string, unknown> = {}, tenantId = 'acme'): Promise<Answer> =>
    (
      await t.http
        .post('/v1/outcomes/failure')
        .set('x-api-key', KEYS.dispatcher)
        .send({ toolName: TOOL, context: { userId, projectId, tenantId }, code: 'BACKEND_FAILED', errorSignature: 'http-502', ...extra })
        .expect(200)
    ).body;
}

/** The WIDER_EVIDENCE events of the log, read on `t` once every instance's relay has moved them. */
const widerEvents = async (t: TestApp, others: TestApp[] = []) =>
  (await settledEventLog(t, [t, ...others])).filter((e) => e.type === 'WIDER_EVIDENCE');

describe('wider evidence (issue 16)', () => {
  let t: TestApp;
  let fail: ReturnType<typeof failing>;

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    fail = failing(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.app.get(WiderEvidenceService).flush();
    await t.reset();
    // Each test in a fresh window of its own, so the in-memory counts of the last one are out of it.
    t.clock.advance(60 * MIN);
  });

  it('4 users: no signal; the 5th in a 3rd project: TENANT with the counts and the wider coalescing key; one event per window', async () => {
    const since = new Date(Math.floor(t.clock.now().getTime() / MIN) * MIN).toISOString();
    for (const [user, project] of [
      ['u1', 'p1'],
      ['u2', 'p1'],
      ['u3', 'p2'],
      ['u4', 'p2'],
    ]) {
      const answer = await fail(user, project);
      expect(answer).toMatchObject({ spawn: true, reason: 'ELIGIBLE', coalescingKey: `${TOOL}:http-502`, widerEvidence: null });
    }
    // The same user again adds nothing.
    expect((await fail('u4', 'p2')).widerEvidence).toBeNull();
    t.clock.advance(2 * MIN);
    const fifth = await fail('u5', 'p3');
    expect(fifth).toMatchObject({
      spawn: true,
      coalescingKey: `${TOOL}:http-502@TENANT:acme`,
      widerEvidence: { scope: 'TENANT', scopeId: 'acme', distinctUsers: 5, distinctProjects: 3, since },
    });
    expect((await fail('u6', 'p3')).widerEvidence).toMatchObject({ distinctUsers: 6, distinctProjects: 3 });
    // Another signature is counted on its own.
    expect((await fail('u1', 'p1', { errorSignature: 'timeout-30s' })).widerEvidence).toBeNull();

    await t.app.get(WiderEvidenceService).flush();
    const events = await widerEvents(t);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      scope: 'TENANT',
      scopeId: 'acme',
      payload: { errorSignature: 'http-502', distinctUsers: 5, distinctProjects: 3, coalescingKey: `${TOOL}:http-502@TENANT:acme` },
    });
    await fail('u7', 'p4');
    await t.app.get(WiderEvidenceService).flush();
    expect(await widerEvents(t)).toHaveLength(1);
    const gql = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.audit)
      .send({
        query:
          '{ healthEvents(first: 50) { edges { node { type scope payload { ... on WiderEvidencePayload { distinctUsers coalescingKey } } } } } }',
      })
      .expect(200);
    expect(gql.body.data.healthEvents.edges.map((e: { node: unknown }) => e.node)).toContainEqual({
      type: 'WIDER_EVIDENCE',
      scope: 'TENANT',
      payload: { distinctUsers: 5, coalescingKey: `${TOOL}:http-502@TENANT:acme` },
    });
  });

  it('403s from 20 users never count, neither classified nor hitting their cooldown', async () => {
    for (let i = 1; i <= 20; i++) {
      const first = await fail(`u${i}`, `p${i % 5}`, { errorSignature: 'http-403', classification: 'USER_PERMISSION' });
      expect(first).toMatchObject({ reason: 'CLASSIFIED_BY_CHECKER', widerEvidence: null, coalescingKey: `${TOOL}:http-403` });
      const again = await fail(`u${i}`, `p${i % 5}`, { errorSignature: 'http-403' });
      expect(again).toMatchObject({ reason: 'IN_COOLDOWN', widerEvidence: null });
    }
    await t.app.get(WiderEvidenceService).flush();
    expect(await t.connection.db!.collection('wider_evidence_buckets').countDocuments({ errorSignature: 'http-403' })).toBe(0);
    expect(await widerEvents(t)).toEqual([]);
  });

  it('the window slides past old failures', async () => {
    for (const [user, project] of [
      ['u1', 'p1'],
      ['u2', 'p2'],
      ['u3', 'p3'],
      ['u4', 'p3'],
    ])
      await fail(user, project);
    t.clock.advance(10 * MIN); // the four are now 10 buckets back: out of the window
    expect((await fail('u5', 'p3')).widerEvidence).toBeNull();
    for (const [user, project] of [
      ['u1', 'p1'],
      ['u2', 'p2'],
      ['u3', 'p3'],
    ])
      await fail(user, project);
    t.clock.advance(9 * MIN); // ...while these are 9 buckets back: still in it
    expect((await fail('u6', 'p3')).widerEvidence).toMatchObject({ distinctUsers: 5, distinctProjects: 3 });
    const service = t.app.get(WiderEvidenceService);
    await service.flush();
    const buckets = t.connection.db!.collection('wider_evidence_buckets');
    expect(await buckets.countDocuments()).toBe(6); // three minutes, each for the tenant and across tenants
    // Two windows later the flush deletes what every window has left behind.
    t.clock.advance(25 * MIN);
    await fail('u7', 'p1');
    await service.flush();
    expect((await buckets.find({}).toArray()).map((b) => b.users)).toEqual([['u7'], ['u7']]);
  });

  it('across tenants: GLOBAL once the counts span two tenants, though neither tenant crosses alone', async () => {
    for (const [user, project, tenant] of [
      ['a1', 'pa1', 'acme'],
      ['a2', 'pa2', 'acme'],
      ['b1', 'pb1', 'bobco'],
      ['b2', 'pb1', 'bobco'],
    ]) {
      expect((await fail(user, project, {}, tenant)).widerEvidence).toBeNull();
    }
    const answer = await fail('b3', 'pb2', {}, 'bobco');
    expect(answer).toMatchObject({
      coalescingKey: `${TOOL}:http-502@GLOBAL`,
      widerEvidence: { scope: 'GLOBAL', scopeId: null, distinctUsers: 5, distinctProjects: 4 },
    });
  });

  it('user-less failures cannot reach a user threshold; maintenance failures are not counted', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await t.http
        .post('/v1/outcomes/failure')
        .set('x-api-key', KEYS.dispatcher)
        .send({ toolName: TOOL, context: { projectId: `p${i}`, tenantId: 'acme' }, code: 'BACKEND_FAILED', errorSignature: 'http-502' })
        .expect(200);
      expect(res.body.widerEvidence).toBeNull();
    }
    const now = t.clock.now();
    await t.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({
        scope: 'GLOBAL',
        toolName: TOOL,
        from: now.toISOString(),
        until: new Date(now.getTime() + 60 * MIN).toISOString(),
        reason: 'upgrade',
      })
      .expect(201);
    for (let i = 0; i < 6; i++) expect(await fail(`m${i}`, `q${i}`)).toMatchObject({ reason: 'UNDER_MAINTENANCE', widerEvidence: null });
  });

  it('writes nothing on the failure path; a flush is one bulk write of bounded buckets', async () => {
    const commands: CommandStartedEvent[] = [];
    const listener = (e: CommandStartedEvent) => commands.push(e);
    t.connection.getClient().on('commandStarted', listener);
    const started = process.hrtime.bigint();
    try {
      for (let i = 0; i < 40; i++) await fail(`u${i}`, `p${i % 7}`);
    } finally {
      t.connection.getClient().off('commandStarted', listener);
    }
    const perFailureMs = Number(process.hrtime.bigint() - started) / 1e6 / 40;
    const writes = commands.filter((c) => ['insert', 'update', 'delete', 'findAndModify'].includes(c.commandName));
    console.log(
      `wider evidence: 40 failures, ${commands.length} commands (${commands.map((c) => c.commandName).join(',')}), ${perFailureMs.toFixed(2)} ms per failure over HTTP`,
    );
    expect(writes.filter((c) => c.command[c.commandName] === 'wider_evidence_buckets')).toEqual([]);

    const flushCommands: CommandStartedEvent[] = [];
    const flushListener = (e: CommandStartedEvent) => flushCommands.push(e);
    t.connection.getClient().on('commandStarted', flushListener);
    try {
      await t.app.get(WiderEvidenceService).flush();
    } finally {
      t.connection.getClient().off('commandStarted', flushListener);
    }
    const bucketWrites = flushCommands.filter((c) => c.commandName === 'update' && c.command.update === 'wider_evidence_buckets');
    expect(bucketWrites).toHaveLength(1);
    const buckets = await t.connection.db!.collection('wider_evidence_buckets').find({}).toArray();
    expect(buckets.map((b) => b.tenantId).sort()).toEqual(['acme', null]);
    for (const b of buckets) {
      expect(b.users).toHaveLength(40);
      expect(b.projects).toHaveLength(7);
    }
    // Bounded: 110 more distinct users in the same minute keep the stored sets at 100 (P79).
    for (let i = 40; i < 150; i++) await fail(`u${i}`, `p${i % 7}`);
    await t.app.get(WiderEvidenceService).flush();
    for (const b of await t.connection.db!.collection('wider_evidence_buckets').find({}).toArray()) expect(b.users).toHaveLength(100);
  });
});

describe('wider evidence across two instances (P79)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ env: ENV, clock: new FakeClock(START) });
    b = await createTestApp({ env: ENV, clock: new FakeClock(START) });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });
  beforeEach(() => resetDatabase(a.connection));

  it('share the counting through the buckets: the same answer on both after a flush, one event', async () => {
    const onA = failing(a);
    const onB = failing(b);
    for (const [user, project] of [
      ['u1', 'p1'],
      ['u2', 'p1'],
      ['u3', 'p2'],
    ])
      expect((await onA(user, project)).widerEvidence).toBeNull();
    expect((await onB('u4', 'p2')).widerEvidence).toBeNull();
    // Neither instance alone has seen 5 users; each flushes its counts and reads the other's.
    await a.app.get(WiderEvidenceService).flush();
    await b.app.get(WiderEvidenceService).flush();
    const onFifth = await onB('u5', 'p3');
    expect(onFifth).toMatchObject({
      coalescingKey: `${TOOL}:http-502@TENANT:acme`,
      widerEvidence: { scope: 'TENANT', distinctUsers: 5, distinctProjects: 3 },
    });
    await b.app.get(WiderEvidenceService).flush();
    await a.app.get(WiderEvidenceService).flush();
    // A sees B's 5th user now: a repeat of u1 on A reads the same counts.
    expect((await onA('u1', 'p1')).widerEvidence).toEqual(onFifth.widerEvidence);
    await a.app.get(WiderEvidenceService).flush();
    expect(await widerEvents(a, [b])).toHaveLength(1);
    const stored = await a.connection.db!.collection('wider_evidence_buckets').find({ tenantId: 'acme' }).toArray();
    expect(stored.flatMap((s) => s.users).sort()).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  });
});
