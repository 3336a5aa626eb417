import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { HealthEvent } from '../domain/health-events';
import { DocumentIdWalk } from '../database/document-id-walk';
import { EventRelayRepository, PendingEvents, RetiredEvents } from '../persistence/health-events/event-relay.repository';
import { EventPage, HealthEventOutbox, PositionedEvent } from '../persistence/health-events/health-event.outbox';
import { EventRelay } from './event-relay.service';
import { EventScopeStatus } from './event-scope-status';
import { InMemoryMaintenanceWindowRepository, InMemoryToolHealthRepository } from '../../test/fakes';

const POLL_MS = 100;
const SLICE = 5; // 50 ids/s every 100 ms
const FULL_SWEEP_MS = 5 * 60_000;

/** The relay's state in memory: documents by id (their pending events), a lease another holder may take. */
class MemoryRelayState extends EventRelayRepository {
  readonly pending = new Map<string, HealthEvent[]>();
  documentIds: string[] = [];
  otherHolder = false;
  failReads = 0;
  readonly walks: { reads: number[]; closed: boolean }[] = [];
  private seq = 0;

  async acquireLease(): Promise<boolean> {
    return !this.otherHolder;
  }
  async releaseLease(): Promise<void> {}
  async reservePositions(count: number): Promise<number> {
    return (this.seq += count);
  }
  async findPending(_limit: number, docIds?: readonly string[]): Promise<PendingEvents[]> {
    if (!docIds) return []; // no markers here: only the sweep finds these documents
    if (this.failReads > 0) {
      this.failReads -= 1;
      throw new Error('database away');
    }
    return docIds.filter((id) => this.pending.get(id)?.length).map((docId) => ({ docId, events: this.pending.get(docId)! }));
  }
  walkDocumentIds(): DocumentIdWalk {
    const walk = { reads: [] as number[], closed: false };
    this.walks.push(walk);
    let at = 0;
    const ids = [...this.documentIds];
    return {
      next: async (max) => {
        walk.reads.push(max);
        const slice = ids.slice(at, at + max);
        at += slice.length;
        return slice;
      },
      close: async () => {
        walk.closed = true;
      },
    };
  }
  async markPending(): Promise<void> {}
  async markPinned(): Promise<void> {}
  async clearPending(relayed: readonly PendingEvents[]): Promise<void> {
    for (const p of relayed) this.pending.delete(p.docId);
  }
  async stageRetired(_record: RetiredEvents): Promise<void> {}
  async findRetired(): Promise<RetiredEvents[]> {
    return [];
  }
  async removeRetired(): Promise<void> {}
  async findPinsEndedBy(): Promise<string[]> {
    return [];
  }
  async dropPinMarker(): Promise<void> {}
  async lifeOf(): Promise<string | null> {
    return null;
  }
}

class MemoryOutbox extends HealthEventOutbox {
  readonly ids: string[] = [];
  async insertInOrder(events: readonly PositionedEvent[]): Promise<void> {
    this.ids.push(...events.map((e) => e.id));
  }
  async readAfter(): Promise<EventPage> {
    return { events: [], endCursor: null };
  }
  async lastPosition(): Promise<string | null> {
    return null;
  }
  async readBetween(): Promise<PositionedEvent[]> {
    return [];
  }
  async findById(): Promise<PositionedEvent | null> {
    return null;
  }
}

const config = () =>
  Object.assign(new AppConfig(), { eventRelayPollMs: POLL_MS, eventRelayLeaseMs: 1000, eventRelaySweepIdsPerSecond: 50 });

/** Over empty stores: the events here name no tool entry, so they are published as they are. */
const scopeStatus = () => new EventScopeStatus(new InMemoryToolHealthRepository(), new InMemoryMaintenanceWindowRepository(), config());
const event = (docId: string) => ({ id: `${docId}:life:1:STATUS_CHANGED`, docId }) as HealthEvent;

/** The relay's sweep (P114), its timer driven by jest's fake clock. */
describe('EventRelay sweep (P114)', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']));
  let state: MemoryRelayState;
  let outbox: MemoryOutbox;
  let relay: EventRelay;

  beforeEach(async () => {
    jest.useFakeTimers({ now: Date.parse('2026-05-23T14:00:00.000Z') });
    state = new MemoryRelayState();
    state.documentIds = Array.from({ length: 12 }, (_, i) => `d${i}`);
    state.pending.set('d11', [event('d11')]);
    outbox = new MemoryOutbox();
    relay = new EventRelay(state, outbox, config(), scopeStatus());
    await relay.onApplicationBootstrap();
  });
  afterEach(async () => {
    await relay.onApplicationShutdown();
    jest.useRealTimers();
  });

  const ticks = (n: number) => jest.advanceTimersByTimeAsync(n * POLL_MS);

  /** After the first sweep was dropped: no new one for a while, one once the interval has passed, and the event arrives. */
  async function nextSweepOnlyAfterTheInterval(): Promise<void> {
    await ticks(10);
    expect(state.walks).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(FULL_SWEEP_MS);
    expect(state.walks).toHaveLength(2);
    expect(outbox.ids).toEqual(['d11:life:1:STATUS_CHANGED']);
  }

  it('starts at the first pass holding the lease and reads one slice per pass until the end', async () => {
    await ticks(2);
    expect(state.walks).toHaveLength(1);
    expect(outbox.ids).toEqual([]);
    await ticks(1);
    expect(outbox.ids).toEqual(['d11:life:1:STATUS_CHANGED']);
    expect(state.walks[0].reads).toEqual([SLICE, SLICE, SLICE]);
  });

  it('starts the next sweep when the last one has ended and the interval has passed since it started', async () => {
    await ticks(3);
    expect(state.walks).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(FULL_SWEEP_MS - 4 * POLL_MS);
    expect(state.walks).toHaveLength(1);
    await ticks(2);
    expect(state.walks).toHaveLength(2);
  });

  it('drops the sweep when the lease is lost; held again, starts the next one when the interval has passed since that one started', async () => {
    await ticks(1);
    state.otherHolder = true;
    await ticks(3); // the lease is renewed every fifth of it (200 ms)
    expect(state.walks[0].closed).toBe(true);
    expect(state.walks[0].reads).toHaveLength(1);
    state.otherHolder = false;
    await nextSweepOnlyAfterTheInterval();
  });

  it('starts its first sweep when it first holds the lease, however late', async () => {
    await relay.onApplicationShutdown();
    state = new MemoryRelayState();
    state.documentIds = ['d0'];
    state.otherHolder = true;
    relay = new EventRelay(state, outbox, config(), scopeStatus());
    await relay.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(FULL_SWEEP_MS * 2);
    expect(state.walks).toHaveLength(0);
    state.otherHolder = false;
    await ticks(3);
    expect(state.walks).toHaveLength(1);
  });

  it('drops the sweep when a read fails; the next one starts when the interval has passed since that one started', async () => {
    await ticks(1);
    state.failReads = 1;
    await ticks(1);
    expect(state.walks[0].closed).toBe(true);
    await nextSweepOnlyAfterTheInterval();
  });

  it('closes the running sweep at shutdown', async () => {
    await ticks(1);
    await relay.onApplicationShutdown();
    expect(state.walks[0].closed).toBe(true);
  });

  it('drain() takes a lease that lapsed between ticks (a loaded machine) before relaying; another holder keeps its own', async () => {
    // No tick runs while the clock jumps past the lease: as when the event loop was starved.
    jest.setSystemTime(Date.now() + 10 * config().eventRelayLeaseMs);
    expect(relay.holdsLease()).toBe(false);
    state.otherHolder = true;
    await relay.drain();
    expect(outbox.ids).toEqual([]);
    state.otherHolder = false;
    await relay.drain();
    expect(relay.holdsLease()).toBe(true);
    expect(outbox.ids).toEqual(['d11:life:1:STATUS_CHANGED']);
  });

  it('drain() runs a whole sweep at once, beside the running one', async () => {
    await ticks(1);
    await relay.drain();
    expect(outbox.ids).toEqual(['d11:life:1:STATUS_CHANGED']);
    expect(state.walks[1]).toEqual({ reads: [100], closed: true });
    expect(state.walks[0].closed).toBe(false);
  });
});
