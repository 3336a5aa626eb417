import { CommandStartedEvent, Document } from 'mongodb';
import { healthEventsOf } from '../../src/domain/health-events';
import { newDocument } from '../../src/domain/health-entry';
import { encodeKey, scopePrefix } from '../../src/domain/health-key';
import { Scope } from '../../src/domain/scope';
import { withStoredEvents } from '../../src/domain/stored-events';
import { markUnavailable } from '../../src/domain/system-writes';
import { ToolErrorCode } from '../../src/domain/tool-error-code';
import { HealthKey } from '../../src/domain/tool-health-document';
import { toRecord } from '../../src/persistence/tool-health/tool-health.mapper';
import { EventRelay } from '../../src/write-path/event-relay.service';
import { sweepSlice } from '../../src/domain/relay-sweep';
import { TestApp, createTestApp, isBackgroundCommand } from '../support/test-app';
import { ownDatabaseClient } from '../support/test-database';

/**
 * Middle tier, P114: the event relay's sweep for events whose pending marker a crash lost, with
 * its real repository on the real database. The lost marker is simulated: a document with
 * pending events and no marker, written straight through the driver, its name in its scope's
 * presence list as the repository would have put it (P81). The data is written before the
 * service starts, through a client of the test's own.
 */
describe('event relay sweep by _id (medium tier, P114)', () => {
  // 100 ids/s every 50 ms: slices of 5 ids, so 60 documents take a dozen slices.
  const env = { EVENT_RELAY_SWEEP_IDS_PER_SECOND: '100', EVENT_RELAY_POLL_MS: '50', EVENT_RELAY_LEASE_MS: '1000' };
  const SLICE = sweepSlice(100, 50);
  const TOOLS = 20;
  const SCOPES = [
    { scope: Scope.PROJECT, scopeId: 'p-1' },
    { scope: Scope.TENANT, scopeId: 't-1' },
    { scope: Scope.USER, scopeId: 'u-1' },
  ];
  const NOW = new Date('2026-05-23T14:00:00.000Z');
  const lost: HealthKey = { scope: Scope.USER, scopeId: 'u-1', toolName: 'tool_19' };
  let t: TestApp | undefined;
  const own = ownDatabaseClient();
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /**
   * 60 documents in three presence lists, nothing pending in any of them but the last one named
   * (the walk reaches it with the last slice), whose write's events are still in it, unmarked.
   */
  async function seed(): Promise<{ ids: string[]; eventIds: string[] }> {
    const ids: string[] = [];
    let eventIds: string[] = [];
    for (const { scope, scopeId } of SCOPES) {
      const tools = Array.from({ length: TOOLS }, (_, i) => `tool_${i}`);
      await own.db
        .collection('tool_health_presence')
        .updateOne({ _id: scopePrefix(scope, scopeId) as never }, { $addToSet: { tools: { $each: tools } } }, { upsert: true });
      for (const toolName of tools) {
        const key = { scope, scopeId, toolName };
        let record: Document;
        if (encodeKey(key) === encodeKey(lost)) {
          const after = {
            ...markUnavailable({
              now: NOW,
              historyLimit: 20,
              key,
              source: 'medium',
              code: ToolErrorCode.BACKEND_FAILED,
              note: 'lost marker',
            })(null)!,
            version: 1,
          };
          const events = healthEventsOf(null, after, 'lost0001');
          eventIds = events.map((e) => e.id);
          record = toRecord(withStoredEvents(after, { life: 'lost0001', pendingEvents: events }));
        } else {
          record = toRecord({ ...newDocument(key, NOW), version: 1 });
        }
        await own.db.collection('tool_health').insertOne(record);
        ids.push(encodeKey(key));
      }
    }
    expect(eventIds.length).toBeGreaterThan(0);
    expect(await own.db.collection('tool_health_pending').countDocuments({})).toBe(0);
    return { ids, eventIds };
  }

  async function outboxIds(): Promise<string[]> {
    return (await own.db.collection('health_events').find({}).toArray()).map((e) => String(e._id));
  }

  /** The ids each relay read of tool_health asked for (here all of them the sweep's: nothing is marked or written). */
  const sweepReads = (commands: CommandStartedEvent[]) =>
    commands.filter((e) => e.commandName === 'find').map((e) => (e.command.filter._id.$in ?? [e.command.filter._id]) as string[]);

  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`never: ${what}`);
  }

  it('the sweep of a new lease holder relays events whose marker was lost, reading tool_health by _id alone in slices of the configured rate', async () => {
    // Another instance holds the lease: this one starts without it, so the commands of its sweep
    // are all seen, from the first one on.
    await own.db.collection('leases').insertOne({ _id: 'event-relay' as never, holder: 'another-instance', until: Date.now() + 600_000 });
    const { ids, eventIds } = await seed();
    t = await createTestApp({ env });
    expect(t.app.get(EventRelay).holdsLease()).toBe(false);

    const relayCommands: CommandStartedEvent[] = [];
    const listener = (e: CommandStartedEvent) => {
      const collection = e.commandName === 'getMore' ? e.command.collection : e.command[e.commandName];
      if (collection === 'tool_health' && isBackgroundCommand(e)) relayCommands.push(e);
    };
    const service = t.connection.getClient();
    service.on('commandStarted', listener);
    try {
      // The other instance is gone: its lease is released, this one takes it and starts a sweep.
      await own.db.collection('leases').deleteOne({ _id: 'event-relay' as never });
      // Until the lost events are in the outbox and out of their document (cleared after the
      // insert), and the sweep has read every document.
      await eventually(async () => {
        const relayed = new Set(await outboxIds());
        const stored = await own.db.collection('tool_health').findOne({ _id: encodeKey(lost) as never });
        return (
          eventIds.every((id) => relayed.has(id)) &&
          stored!.pendingEvents.length === 0 &&
          new Set(sweepReads(relayCommands).flat()).size === ids.length
        );
      }, 'the lost events in the outbox and out of their document, every document read');
    } finally {
      service.off('commandStarted', listener);
    }
    expect(t.app.get(EventRelay).holdsLease()).toBe(true);

    // Every relay command on tool_health names documents by `_id` alone (P98: anything else scans).
    const filters = relayCommands.flatMap((e) =>
      e.commandName === 'update'
        ? (e.command.updates as { q: Document }[]).map((u) => u.q)
        : e.commandName === 'find'
          ? [e.command.filter as Document]
          : [],
    );
    expect(filters.length).toBeGreaterThan(0);
    for (const filter of filters) {
      expect(Object.keys(filter)).toEqual(['_id']);
      if (typeof filter._id === 'object') expect(Object.keys(filter._id)).toEqual(['$in']);
    }
    expect(relayCommands.map((e) => e.commandName).filter((name) => name !== 'find' && name !== 'update')).toEqual([]);
    // Nothing was marked or written: every read here is the sweep's, and none asks for more than a slice.
    const reads = sweepReads(relayCommands);
    for (const slice of reads) expect(slice.length).toBeLessThanOrEqual(SLICE);
    expect(reads.length).toBeGreaterThanOrEqual(ids.length / SLICE);
    expect(new Set(reads.flat())).toEqual(new Set(ids));
  });

  it('drain() relays events whose marker was lost: a whole sweep at once', async () => {
    // One id per tick in the background: its own sweep reaches the lost document (the last one
    // named) only after 60 ticks, long after drain() returned.
    const { eventIds } = await seed();
    t = await createTestApp({ env: { EVENT_RELAY_SWEEP_IDS_PER_SECOND: '1' } });
    const relay = t.app.get(EventRelay);
    expect(relay.holdsLease()).toBe(true);
    await relay.drain();
    expect(await outboxIds()).toEqual(expect.arrayContaining(eventIds));
    const stored = await own.db.collection('tool_health').findOne({ _id: encodeKey(lost) as never });
    expect(stored!.pendingEvents).toEqual([]);
  });
});
