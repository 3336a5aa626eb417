import { Clock } from '../../runtime/clock';
import { AppConfig } from '../../config/app-config';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { EventPage, HealthEventOutbox, positionOf } from '../../persistence/health-events/health-event.outbox';
import { OutboxRelay, RelayedEvent, matchesFilter } from './outbox-relay.service';

class ManualClock extends Clock {
  constructor(public ms = Date.parse('2026-05-23T14:00:00.000Z')) {
    super();
  }
  now(): Date {
    return new Date(this.ms);
  }
}

/** The outbox's contract in memory: positions from a counter in commit order (P53), read in position order. */
class MemoryOutbox extends HealthEventOutbox {
  readonly records: RelayedEvent[] = [];
  reads = 0;
  failNext = 0;
  private seq = 0;

  /** What the event relay does: the next positions, in order. */
  async append(events: readonly HealthEvent[]): Promise<void> {
    await this.insertInOrder(events.map((e) => ({ ...e, position: positionOf(++this.seq) })));
  }

  async insertInOrder(events: readonly RelayedEvent[]): Promise<void> {
    for (const e of events) if (!this.records.some((r) => r.id === e.id)) this.records.push(e);
  }

  async lastPosition(): Promise<string | null> {
    return this.records.reduce<string | null>((max, r) => (max === null || r.position > max ? r.position : max), null);
  }

  async readAfter(after: string | null, limit: number): Promise<EventPage> {
    this.reads += 1;
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('database away');
    }
    const events = this.records
      .filter((r) => after === null || r.position > after)
      .sort((a, b) => (a.position < b.position ? -1 : 1))
      .slice(0, limit);
    return { events, endCursor: events.length > 0 ? events[events.length - 1].position : after };
  }

  async readBetween(): Promise<RelayedEvent[]> {
    return [];
  }

  async findById(): Promise<RelayedEvent | null> {
    return null;
  }
}

function event(id: string, at: Date, over: Partial<HealthEvent> = {}): HealthEvent {
  return {
    id,
    docId: `GLOBAL|%00|${id}`,
    scope: Scope.GLOBAL,
    scopeId: null,
    toolName: id,
    status: ToolStatus.DOWN,
    at,
    type: HealthEventType.STATUS_CHANGED,
    payload: { previousStatus: null, expectedRecoveryAt: null, code: null },
    ...over,
  } as HealthEvent;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Collects what an iterator yields until told to stop. */
function drain(iterator: AsyncIterableIterator<RelayedEvent>) {
  const seen: RelayedEvent[] = [];
  let error: unknown = null;
  const done = (async () => {
    try {
      for await (const e of iterator) seen.push(e);
    } catch (e) {
      error = e;
    }
  })();
  return { seen, ids: () => seen.map((e) => e.id), done, error: () => error };
}

describe('OutboxRelay (D13 live feed)', () => {
  let clock: ManualClock;
  let outbox: MemoryOutbox;
  let relay: OutboxRelay;

  beforeEach(() => {
    clock = new ManualClock();
    outbox = new MemoryOutbox();
    relay = new OutboxRelay(outbox, { outboxPollMs: 10 } as AppConfig);
  });

  afterEach(() => relay.onApplicationShutdown());

  it('does not poll without subscribers, and stops when the last one leaves', async () => {
    await sleep(40);
    expect(outbox.reads).toBe(0);
    const a = relay.listen();
    const b = relay.listen();
    await sleep(40);
    expect(relay.isPolling).toBe(true);
    expect(outbox.reads).toBeGreaterThan(0);
    await a.return!();
    expect(relay.isPolling).toBe(true);
    await b.return!();
    expect(relay.isPolling).toBe(false);
    const reads = outbox.reads;
    await sleep(40);
    expect(outbox.reads).toBe(reads);
  });

  it('starts at the current end: events committed before the first subscriber are not replayed', async () => {
    await outbox.append([event('old', new Date(clock.ms - 1))]);
    const feed = drain(relay.listen());
    await sleep(20);
    await outbox.append([event('same-instant', new Date(clock.ms)), event('later', new Date(clock.ms + 5))]);
    await sleep(50);
    expect(feed.ids().sort()).toEqual(['later', 'same-instant']);
  });

  it('delivers each event once across polls', async () => {
    const feed = drain(relay.listen());
    await sleep(20);
    clock.ms += 1000;
    await outbox.append([event('e1', clock.now())]);
    await sleep(50);
    clock.ms += 1000;
    await outbox.append([event('e2', clock.now())]);
    await sleep(50);
    expect(feed.ids()).toEqual(['e1', 'e2']);
  });

  it('delivers a late arrival stamped before what it already read (slow write, clock skew): its position is later', async () => {
    const feed = drain(relay.listen());
    await sleep(20);
    clock.ms += 10_000;
    await outbox.append([event('b-late-cursor', clock.now())]);
    await sleep(40);
    // Committed now, stamped a minute earlier than what the relay has read.
    await outbox.append([event('a-stamped-earlier', new Date(clock.ms - 60_000))]);
    await sleep(40);
    expect(feed.ids()).toEqual(['b-late-cursor', 'a-stamped-earlier']);
  });

  it('pages through more events than one read returns', async () => {
    relay.configure({ pageSize: 3 });
    const feed = drain(relay.listen());
    await sleep(20);
    clock.ms += 1000;
    await outbox.append(Array.from({ length: 10 }, (_, i) => event(`e${String(i).padStart(2, '0')}`, clock.now())));
    await sleep(60);
    expect(feed.ids()).toEqual(Array.from({ length: 10 }, (_, i) => `e${String(i).padStart(2, '0')}`));
  });

  it('filters per subscriber', async () => {
    const all = drain(relay.listen());
    const jira = drain(relay.listen({ toolName: 'jira' }));
    const tenantDegraded = drain(relay.listen({ scope: Scope.TENANT, status: ToolStatus.DEGRADED }));
    await sleep(20);
    clock.ms += 1000;
    await outbox.append([
      event('1', clock.now(), { toolName: 'jira' }),
      event('2', clock.now(), { toolName: 'wiki', scope: Scope.TENANT, scopeId: 't', status: ToolStatus.DEGRADED }),
      event('3', clock.now(), { toolName: 'jira', scope: Scope.TENANT, scopeId: 't', status: ToolStatus.DOWN }),
    ]);
    await sleep(50);
    expect(all.ids()).toEqual(['1', '2', '3']);
    expect(jira.ids()).toEqual(['1', '3']);
    expect(tenantDegraded.ids()).toEqual(['2']);
  });

  it('keeps polling after a failed read', async () => {
    outbox.failNext = 2;
    const feed = drain(relay.listen());
    await sleep(20);
    clock.ms += 1000;
    await outbox.append([event('after-outage', clock.now())]);
    await sleep(80);
    expect(feed.ids()).toEqual(['after-outage']);
  });

  it('ends a subscriber that falls too far behind, with an error', async () => {
    relay.configure({ maxQueuedPerSubscriber: 2 });
    const iterator = relay.listen();
    await sleep(20);
    clock.ms += 1000;
    await outbox.append([event('1', clock.now()), event('2', clock.now()), event('3', clock.now())]);
    await sleep(40);
    await expect(iterator.next()).resolves.toMatchObject({ value: { id: '1' } });
    await expect(iterator.next()).resolves.toMatchObject({ value: { id: '2' } });
    await expect(iterator.next()).rejects.toThrow(/fell more than 2 events behind/);
    expect(relay.subscriberCount).toBe(0);
  });

  it('stops on shutdown, completes open iterators and refuses new subscribers', async () => {
    const iterator = relay.listen();
    const pending = iterator.next();
    await sleep(20);
    await relay.onModuleDestroy();
    expect(relay.isPolling).toBe(false);
    expect(relay.subscriberCount).toBe(0);
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(() => relay.listen()).toThrow(/shutting down/);
  });

  it('matches filters field by field; null and undefined match anything', () => {
    const e = event('x', clock.now(), { toolName: 'jira', scope: Scope.TENANT, scopeId: 't1', status: ToolStatus.DOWN });
    expect(matchesFilter(e, {})).toBe(true);
    expect(matchesFilter(e, { toolName: null, scope: null, scopeId: null, status: null })).toBe(true);
    expect(matchesFilter(e, { toolName: 'jira', scope: Scope.TENANT, scopeId: 't1', status: ToolStatus.DOWN })).toBe(true);
    expect(matchesFilter(e, { toolName: 'wiki' })).toBe(false);
    expect(matchesFilter(e, { scope: Scope.GLOBAL })).toBe(false);
    expect(matchesFilter(e, { scopeId: 't2' })).toBe(false);
    expect(matchesFilter(e, { status: ToolStatus.OK })).toBe(false);
  });
});
