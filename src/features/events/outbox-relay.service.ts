import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { PubSub } from 'graphql-subscriptions';
import { AppConfig } from '../../config/app-config';
import { HealthEvent } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { HealthEventOutbox } from '../../persistence/health-events/health-event.outbox';

/** An outbox event with its cursor position. */
export type RelayedEvent = HealthEvent & { position: string };

/** What a subscriber wants to see; an absent field matches everything. */
export interface HealthEventFilter {
  toolName?: string | null;
  scope?: Scope | null;
  scopeId?: string | null;
  status?: ToolStatus | null;
}

export function matchesFilter(event: HealthEvent, filter: HealthEventFilter): boolean {
  return (
    (filter.toolName == null || event.toolName === filter.toolName) &&
    (filter.scope == null || event.scope === filter.scope) &&
    (filter.scopeId == null || event.scopeId === filter.scopeId) &&
    (filter.status == null || event.status === filter.status)
  );
}

export interface OutboxRelayOptions {
  /** How often the outbox is read while someone listens (OUTBOX_POLL_MS). */
  pollMs: number;
  /** Unused since P53 (positions follow commit order, nothing lands behind the cursor); kept for configure(). */
  lookbackMs: number;
  /** Events per outbox read; a poll pages on while pages come back full (bounded by maxPagesPerPoll). */
  pageSize: number;
  maxPagesPerPoll: number;
  /** A subscriber that falls this many events behind is ended with an error (it may resubscribe). */
  maxQueuedPerSubscriber: number;
}

export const DEFAULT_RELAY_OPTIONS: Omit<OutboxRelayOptions, 'pollMs'> = {
  lookbackMs: 5_000,
  pageSize: 500,
  maxPagesPerPoll: 20,
  maxQueuedPerSubscriber: 1_000,
};

const TRIGGER = 'health-event';

/**
 * D13's live feed: while at least one subscription is open, reads the outbox every
 * OUTBOX_POLL_MS and publishes each new event to an in-process PubSub. Every instance relays
 * from the shared outbox, so a change written through any instance reaches every subscriber.
 *
 * A run starts when the first subscriber arrives, at the current end of the outbox: events
 * stamped before that moment and already there are history, not news. Within a run each event
 * is relayed once (ids seen in the re-read window are dropped); a new run (after the last
 * subscriber left, or on another instance) starts afresh, so clients should treat delivery as at
 * least once and dedupe by id. Polling stops when the last subscriber leaves and on shutdown.
 */
@Injectable()
export class OutboxRelay implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  /** One listener per open subscription: no MaxListenersExceeded warning past ten. */
  private readonly pubsub = new PubSub({ eventEmitter: new EventEmitter().setMaxListeners(0) });
  private readonly options: OutboxRelayOptions;

  private subscribers = 0;
  private running = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  /** Bumped on every start/stop so a poll of an earlier run cannot touch the current one. */
  private generation = 0;
  /** Highest position read so far (null before the first read of a run). */
  private cursor: string | null = null;
  /** The outbox's end when the run started (the first poll waits for it). */
  private startAt: Promise<string | null> | undefined;
  /** False until the first read of a run has completed. */
  private primed = false;
  /** Ids already handled in the re-read window → their position (pruned as the window moves). */
  private readonly seen = new Map<string, string>();
  /** Set while reads fail, so an outage is logged once, not every poll. */
  private failing = false;
  /** How to end each open iterator (on shutdown). */
  private readonly open = new Set<() => void>();

  constructor(
    private readonly outbox: HealthEventOutbox,
    config: AppConfig,
  ) {
    this.options = { ...DEFAULT_RELAY_OPTIONS, pollMs: config.outboxPollMs };
  }

  /** Test seam: relay options other than the poll interval. */
  configure(options: Partial<Omit<OutboxRelayOptions, 'pollMs'>>): void {
    Object.assign(this.options, options);
  }

  get subscriberCount(): number {
    return this.subscribers;
  }

  get isPolling(): boolean {
    return this.running;
  }

  /**
   * An iterator of the events matching `filter`, live from now on. Listening starts at once (no
   * gap before the first `next()`); `return()` (the client unsubscribed or went away) releases it.
   */
  listen(filter: HealthEventFilter = {}): AsyncIterableIterator<RelayedEvent> {
    if (this.stopped) throw new Error('the application is shutting down');
    const pending: RelayedEvent[] = [];
    const waiting: ((result: IteratorResult<RelayedEvent>) => void)[] = [];
    let failure: Error | null = null;
    let done = false;
    let subId: number | null = null;

    const release = () => {
      if (done) return;
      done = true;
      this.open.delete(release);
      if (subId !== null) this.pubsub.unsubscribe(subId);
      subId = null;
      pending.length = 0;
      for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
      this.subscriberLeft();
    };

    const onEvent = (event: RelayedEvent) => {
      if (done || !matchesFilter(event, filter)) return;
      const resolve = waiting.shift();
      if (resolve) return resolve({ value: event, done: false });
      if (pending.length >= this.options.maxQueuedPerSubscriber) {
        failure = new Error(`subscriber fell more than ${this.options.maxQueuedPerSubscriber} events behind; subscribe again`);
        if (subId !== null) this.pubsub.unsubscribe(subId);
        subId = null;
        return;
      }
      pending.push(event);
    };

    // PubSub.subscribe registers its listener synchronously; the promise only carries the id.
    void this.pubsub.subscribe(TRIGGER, onEvent).then((id) => {
      if (done) this.pubsub.unsubscribe(id);
      else subId = id;
    });
    this.open.add(release);
    this.subscriberJoined();

    const iterator: AsyncIterableIterator<RelayedEvent> = {
      next: () => {
        if (pending.length > 0) return Promise.resolve({ value: pending.shift()!, done: false });
        if (failure) {
          const error = failure;
          release();
          return Promise.reject(error);
        }
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => waiting.push(resolve));
      },
      return: () => {
        release();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (error?: unknown) => {
        release();
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  onModuleDestroy(): Promise<void> {
    return this.shutdown();
  }

  onApplicationShutdown(): Promise<void> {
    return this.shutdown();
  }

  private async shutdown(): Promise<void> {
    this.stopped = true;
    for (const release of [...this.open]) release(); // open subscriptions complete
    this.stop();
    await this.inFlight?.catch(() => undefined);
  }

  private subscriberJoined(): void {
    this.subscribers += 1;
    if (this.subscribers === 1) this.start();
  }

  private subscriberLeft(): void {
    this.subscribers = Math.max(0, this.subscribers - 1);
    if (this.subscribers === 0) this.stop();
  }

  private start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.generation += 1;
    this.cursor = null;
    this.seen.clear();
    this.primed = false;
    // Where "now" is in the outbox, read at once: a change committed after the first subscriber
    // arrived must not count as history because the first poll ran a little later.
    this.startAt = this.outbox.lastPosition();
    this.startAt.catch(() => undefined);
    this.schedule(0);
  }

  private stop(): void {
    if (!this.running) return;
    this.running = false;
    this.generation += 1;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.seen.clear();
    this.cursor = null;
  }

  private schedule(delayMs: number): void {
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (generation !== this.generation) return;
      this.inFlight = this.poll(generation).finally(() => {
        this.inFlight = undefined;
        if (generation === this.generation && this.running) this.schedule(this.options.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * One read of the outbox from the cursor to the end. Positions are assigned in commit order by
   * the event relay (P53), so reading on from the cursor misses nothing that commits later. The
   * first read of a run only finds where the outbox ends: what is there is history, not news.
   */
  private async poll(generation: number): Promise<void> {
    try {
      if (!this.primed) {
        const end = await (this.startAt ?? this.outbox.lastPosition()).catch((error) => {
          this.startAt = undefined; // read again on the next poll
          throw error;
        });
        if (generation !== this.generation) return;
        this.cursor = end;
        this.primed = true;
      }
      let reachedEnd = false;
      for (let page = 0; page < this.options.maxPagesPerPoll && !reachedEnd; page += 1) {
        const { events, endCursor } = await this.outbox.readAfter(this.cursor, this.options.pageSize);
        if (generation !== this.generation) return;
        for (const event of events) this.handle(event);
        if (endCursor !== null) this.cursor = endCursor;
        reachedEnd = events.length < this.options.pageSize;
      }
    } catch (error) {
      if (!this.failing) this.logger.warn(`outbox read failed, retrying every ${this.options.pollMs} ms: ${(error as Error).message}`);
      this.failing = true;
      return;
    }
    if (this.failing) this.logger.log('outbox reads work again');
    this.failing = false;
  }

  private handle(event: RelayedEvent): void {
    // A re-relayed id keeps its first position (the outbox skips it), so each id arrives once per
    // run; the set only guards a subscriber against a page read twice across a retry.
    if (this.seen.has(event.id)) return;
    this.seen.set(event.id, event.position);
    if (this.seen.size > 10_000) this.seen.delete(this.seen.keys().next().value as string);
    void this.pubsub.publish(TRIGGER, event);
  }
}
