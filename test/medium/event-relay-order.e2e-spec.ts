import { randomUUID } from 'node:crypto';
import { deletedEvent, healthEventsOf } from '../../src/domain/health-events';
import { encodeKey, scopePrefix } from '../../src/domain/health-key';
import { Scope } from '../../src/domain/scope';
import { withStoredEvents } from '../../src/domain/stored-events';
import { markUnavailable } from '../../src/domain/system-writes';
import { ToolErrorCode } from '../../src/domain/tool-error-code';
import { toRecord } from '../../src/persistence/tool-health/tool-health.mapper';
import { EventRelay } from '../../src/write-path/event-relay.service';
import { aStatusChange } from '../factories';
import { KEYS, TestApp, createTestApp } from '../support/test-app';
import { settledEventLog } from '../support/event-log';
import { ownDatabaseClient } from '../support/test-database';

/**
 * Middle tier, P359: events staged apart from a document (maintenance windows, wider evidence,
 * a hard delete's last events) wait in tool_health_retired until the lease holder moves them.
 * When it falls behind — another instance holds the lease, a loaded machine — several records
 * wait at once, and the log must take them in the order they were staged, whatever order the
 * database happens to hold them in. The records are written through a client of the test's own,
 * in an order unlike their staging order, before the service starts.
 */
describe('event relay: the order staged records reach the log in (medium tier, P359)', () => {
  const RECORDS = 24;
  let t: TestApp | undefined;
  const own = ownDatabaseClient();
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A small deterministic generator: each run of the test holds the same states. */
  function generator(seed: number): () => number {
    let s = seed >>> 0;
    return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
  }

  it.each([1, 2, 3])('seed %i: the log holds the events by stagedAt, then record id, however they were inserted', async (seed) => {
    const random = generator(seed);
    const base = Date.now() - 60_000;
    // Some records share a millisecond (two instances staging at once): their ids decide.
    const records = Array.from({ length: RECORDS }, (_, i) => {
      const stagedAt = base + Math.floor(random() * 8);
      const event = aStatusChange({ id: `order-test:${seed}:${i}`, at: new Date(stagedAt) });
      return { _id: `standalone:${randomUUID()}`, docId: 'standalone', life: 'standalone', events: [event], stagedAt };
    });
    const expected = [...records].sort((a, b) => a.stagedAt - b.stagedAt || (a._id < b._id ? -1 : 1)).map((r) => r.events[0].id);
    const insertion = [...records].sort(() => random() - 0.5);
    for (const record of insertion) await own.db.collection('tool_health_retired').insertOne(record as never);
    expect(insertion.map((r) => r.events[0].id)).not.toEqual(expected);

    t = await createTestApp();
    const logged = (await settledEventLog(t)).map((e) => e.id).filter((id) => id.startsWith('order-test:'));
    expect(logged).toEqual(expected);
    expect(await own.db.collection('tool_health_retired').countDocuments({})).toBe(0);
  });

  describe('a document deleted and written again: its old life ends in the log before the new one begins', () => {
    const key = { scope: Scope.PROJECT, scopeId: 'p-1', toolName: 'jira_search' };
    const id = encodeKey(key);
    const marked = (at: Date, note: string, version: number) => ({
      ...markUnavailable({ now: at, historyLimit: 20, key, source: 'medium', code: ToolErrorCode.BACKEND_FAILED, note })(null)!,
      version,
    });
    /** Another instance deleted the entry's life `old00001`: its DELETED staged, as HealthStore.delete stages it. */
    async function stagedDeletion(at: Date): Promise<string> {
      const gone = deletedEvent(marked(at, 'old life', 3), 'admin:ops', at, 'old00001');
      await own.db
        .collection('tool_health_retired')
        .insertOne({ _id: `${id}:old00001`, docId: id, life: 'old00001', events: [gone], stagedAt: at.getTime() } as never);
      return gone.id;
    }
    const loggedFor = async (app: TestApp) => (await settledEventLog(app)).filter((e) => e.docId === id).map((e) => e.id);

    it("written on another instance before the lease holder's next pass", async () => {
      const gone = await stagedDeletion(new Date(Date.now() - 60_000));
      // The new life, written by that instance: its events pending, its marker set.
      const again = marked(new Date(Date.now() - 30_000), 'new life', 1);
      const created = healthEventsOf(null, again, 'new00001');
      await own.db
        .collection('tool_health')
        .insertOne(toRecord(withStoredEvents(again, { life: 'new00001', pendingEvents: created })) as never);
      await own.db.collection('tool_health_pending').insertOne({ _id: id } as never);
      await own.db
        .collection('tool_health_presence')
        .insertOne({ _id: scopePrefix(key.scope, key.scopeId), tools: [key.toolName] } as never);

      t = await createTestApp();
      expect(await loggedFor(t)).toEqual([gone, ...created.map((e) => e.id)]);
    });

    it("written on the lease holder, which relays the write's events at once", async () => {
      // A long poll: no pass of the relay's own runs during the test; the lease is taken at start.
      t = await createTestApp({
        env: { EVENT_RELAY_POLL_MS: '60000', EVENT_RELAY_LEASE_MS: '600000', EVENT_RELAY_SWEEP_IDS_PER_SECOND: '10' },
      });
      expect(t.app.get(EventRelay).holdsLease()).toBe(true);
      const gone = await stagedDeletion(new Date());
      await t.http
        .post('/v1/health/mark-unavailable')
        .set('x-api-key', KEYS.admin)
        .send({ ...key, code: 'BACKEND_FAILED', source: 'medium', note: 'new life' })
        .expect(200);
      // The write's own pass was queued first; the read's drain waits for it and finds nothing more.
      const logged = await loggedFor(t);
      expect(logged[0]).toBe(gone);
      expect(logged.length).toBeGreaterThan(1);
    });
  });
});
