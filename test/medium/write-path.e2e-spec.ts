import { ToolHealthClassification } from '../../src/domain/classification';
import { Scope } from '../../src/domain/scope';
import { markUnavailable } from '../../src/domain/system-writes';
import { pinEntry } from '../../src/domain/pin';
import { ToolErrorCode } from '../../src/domain/tool-error-code';
import { ToolStatus } from '../../src/domain/tool-status';
import { DispatchOutcomeService } from '../../src/features/outcomes/dispatch-outcome.service';
import { ToolHealthRepository } from '../../src/persistence/tool-health/tool-health.repository';
import { HealthStore } from '../../src/write-path/health-store.service';
import { TenantSettingsRepository } from '../../src/persistence/tenant-settings/tenant-settings.repository';
import { CommandStartedEvent } from 'mongodb';
import { BookkeepingFlush } from '../../src/persistence/tool-health/bookkeeping-update';
import { EventRelay } from '../../src/write-path/event-relay.service';
import { KEYS, TestApp, createTestApp, isBackgroundCommand } from '../support/test-app';

/**
 * Middle tier (issue 11): the write path and the outcome services with their real repository on
 * the real database, called directly — no HTTP, no validation layer in between.
 */
describe('write path and outcome services (medium tier)', () => {
  let t: TestApp;
  let store: HealthStore;
  let outcomes: DispatchOutcomeService;
  let repository: ToolHealthRepository;

  beforeAll(async () => {
    t = await createTestApp();
    store = t.app.get(HealthStore);
    outcomes = t.app.get(DispatchOutcomeService);
    repository = t.app.get(ToolHealthRepository);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  const project = { scope: Scope.PROJECT, scopeId: 'p-1', toolName: 'jira' };
  const global = { scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' };
  const down = (key: typeof project | typeof global, note: string) => (env: { now: Date; historyLimit: number }) =>
    markUnavailable({ ...env, key, source: 'medium', code: ToolErrorCode.BACKEND_FAILED, note });
  const events = () => t.connection.db!.collection('health_events').find({}).sort({ position: 1 }).toArray();
  const raw = (id: string) => t.connection.db!.collection('tool_health').findOne({ _id: id as never });

  it('the tenant comes from the stored document, whatever the caller hints; the limit follows it', async () => {
    await t.app.get(TenantSettingsRepository).setHistoryLimit('t-5', 5, 'medium', t.clock.now());
    await store.write(project, 't-5', down(project, 'first'));
    for (let i = 0; i < 8; i++) {
      t.clock.advance(1000);
      await store.write(project, i % 2 === 0 ? null : 'someone-else', down(project, `n${i}`));
    }
    const doc = (await repository.findById('PROJECT|p-1|jira'))!;
    expect(doc.tenantId).toBe('t-5');
    expect(doc.history).toHaveLength(5);
  });

  it('a write reads its document once, under its lock: no read of its tenant before (P368)', async () => {
    await store.write(project, 't-5', down(project, 'first'));
    const reads: unknown[] = [];
    const listener = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command.find === 'tool_health' && !isBackgroundCommand(e))
        reads.push(e.command.projection ?? 'whole');
    };
    const client = t.connection.getClient();
    client.on('commandStarted', listener);
    try {
      t.clock.advance(1000);
      await store.write(project, 't-5', down(project, 'second'));
      t.clock.advance(1000);
      // Another tenant named: the document's own limit is looked up, and the write made again.
      await store.write(project, 'someone-else', down(project, 'third'));
    } finally {
      client.off('commandStarted', listener);
    }
    // The document this instance just wrote is read by its stamp alone (P354), once per round.
    expect(reads).toEqual([
      { version: 1, life: 1, pendingEvents: 1 },
      { version: 1, life: 1, pendingEvents: 1 },
      { version: 1, life: 1, pendingEvents: 1 },
    ]);
    expect((await repository.findById('PROJECT|p-1|jira'))!.history.map((h) => h.note)).toEqual(['first', 'second', 'third']);
  });

  it("a bulk write gives each document its own tenant's limit, those of other tenants in a second round", async () => {
    const settings = t.app.get(TenantSettingsRepository);
    await settings.setHistoryLimit('t-2', 2, 'medium', t.clock.now());
    await settings.setHistoryLimit('t-3', 3, 'medium', t.clock.now());
    const key = (toolName: string) => ({ ...project, toolName });
    await store.write(key('a'), 't-2', down(key('a'), 'a0'));
    await store.write(key('b'), 't-3', down(key('b'), 'b0'));
    for (let i = 1; i <= 4; i++) {
      t.clock.advance(1000);
      await store.writeMany([key('a'), key('b'), key('c')], 't-3', (env, k) => down(k as typeof project, `${k.toolName}${i}`)(env));
    }
    const docs = await repository.findManyByIds(['PROJECT|p-1|a', 'PROJECT|p-1|b', 'PROJECT|p-1|c']);
    expect([...docs.values()].map((d) => [d.toolName, d.tenantId, d.history.map((h) => h.note)])).toEqual([
      ['a', 't-2', ['a3', 'a4']],
      ['b', 't-3', ['b2', 'b3', 'b4']],
      ['c', 't-3', ['c2', 'c3', 'c4']],
    ]);
  });

  it('a GLOBAL document never records a tenant', async () => {
    await store.write(global, 't-5', down(global, 'outage'));
    expect((await repository.findById('GLOBAL|%00|jira'))!.tenantId).toBeNull();
  });

  it("the events of a write are in the document until relayed, then in the outbox, with the document's life in their ids", async () => {
    await store.write(global, null, down(global, 'outage'));
    // This instance holds the lease and relays the write at once, within a bounded wait that a
    // loaded machine can outlast: the drain waits for that pass.
    await t.app.get(EventRelay).drain();
    const stored = await raw('GLOBAL|%00|jira');
    expect(stored!.life).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(stored!.pendingEvents).toEqual([]);
    const [event] = await events();
    expect(event).toMatchObject({
      _id: `GLOBAL|%00|jira:${stored!.life}:1:STATUS_CHANGED`,
      type: 'STATUS_CHANGED',
      position: 'c000000000000001',
    });

    const deleted = await store.delete(global, 'admin:medium');
    expect(deleted?.version).toBe(1);
    await store.write(global, null, down(global, 'again'));
    await t.app.get(EventRelay).drain();
    const reborn = await raw('GLOBAL|%00|jira');
    expect(reborn!.life).not.toBe(stored!.life);
    const ids = (await events()).map((e) => e._id);
    expect(ids).toEqual([
      `GLOBAL|%00|jira:${stored!.life}:1:STATUS_CHANGED`,
      `GLOBAL|%00|jira:${stored!.life}:1:DELETED`,
      `GLOBAL|%00|jira:${reborn!.life}:1:STATUS_CHANGED`,
    ]);
  });

  it("a success under a tenant's OK pin changes only what the pin reaches", async () => {
    await store.write(global, null, down(global, 'outage'));
    const tenant = { scope: Scope.TENANT, scopeId: 'acme', toolName: 'jira' };
    await store.write(tenant, null, (env) =>
      pinEntry({
        key: tenant,
        status: ToolStatus.OK,
        until: new Date('2026-05-24T00:00:00Z'),
        reason: 'own Jira',
        by: 'admin:m',
        now: env.now,
        historyLimit: env.historyLimit,
      }),
    );
    const res = await outcomes.reportSuccess({ toolName: 'jira', context: { tenantId: 'acme' } });
    expect(res).toEqual({ status: ToolStatus.OK, changed: [] });
    expect((await repository.findById('GLOBAL|%00|jira'))!.status).toBe(ToolStatus.DOWN);
  });

  it('a classified failure in its running cooldown leaves the document as it was', async () => {
    const report = {
      toolName: 'jira',
      code: ToolErrorCode.BACKEND_FAILED,
      errorSignature: 'http-403',
      classification: ToolHealthClassification.USER_PERMISSION,
      context: { userId: 'alice' },
    };
    await outcomes.reportFailure(report);
    const before = (await repository.findById('USER|alice|jira'))!;
    t.clock.advance(60_000);
    const answer = await outcomes.reportFailure(report);
    expect(answer).toMatchObject({ reason: 'CLASSIFIED_BY_CHECKER', spawn: false, retryAt: new Date('2026-05-24T14:00:00.000Z') });
    const after = (await repository.findById('USER|alice|jira'))!;
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(after.cooldowns[0].lastClassification).toBe(ToolHealthClassification.USER_PERMISSION);
  });

  it('a flush of 120 documents goes out in bulk writes of 25 documents at most; resent whole, it adds nothing (P113, P42)', async () => {
    const users = Array.from({ length: 120 }, (_, i) => `u-${i}`);
    for (const user of users) {
      await t.http
        .post('/v1/cooldowns')
        .set('x-api-key', KEYS.dispatcher)
        .send({
          scope: 'USER',
          scopeId: user,
          toolName: 'jira',
          errorSignature: 'http-403',
          classification: 'USER_PERMISSION',
          userId: user,
        })
        .expect(200);
    }
    const at = t.clock.now();
    const flush: BookkeepingFlush = {
      flushId: 'medium.1',
      resent: false,
      writes: users.map((user, i) => ({
        id: `USER|${user}|jira`,
        hits: [{ errorSignature: 'http-403', userId: user, count: i + 1, lastTriggeredAt: at }],
        lastFailureAt: at,
      })),
    };
    const batches: number[] = [];
    const listener = (e: CommandStartedEvent) => {
      // The relay's own clearing of earlier writes' events may land meanwhile: not the flush's.
      if (e.commandName === 'update' && e.command.update === 'tool_health' && !isBackgroundCommand(e))
        batches.push((e.command.updates as unknown[]).length);
    };
    const client = t.connection.getClient();
    client.on('commandStarted', listener);
    try {
      await repository.applyBookkeeping([flush]);
    } finally {
      client.off('commandStarted', listener);
    }
    expect(batches).toEqual([25, 25, 25, 25, 20]);
    const hits = async () => (await repository.findManyByIds(flush.writes.map((w) => w.id))).values();
    for (const doc of await hits()) expect(doc.cooldowns[0].hits).toBe(users.indexOf(doc.scopeId!) + 1);

    await repository.applyBookkeeping([{ ...flush, resent: true }]);
    for (const doc of await hits()) expect(doc.cooldowns[0].hits).toBe(users.indexOf(doc.scopeId!) + 1);
  });
});
