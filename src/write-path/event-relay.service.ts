import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../config/app-config';
import { HealthEvent } from '../domain/health-events';
import { DocumentIdWalk } from '../database/document-id-walk';
import { EventRelayRepository } from '../persistence/health-events/event-relay.repository';
import { HealthEventOutbox, positionOf } from '../persistence/health-events/health-event.outbox';
import { sweepDue, sweepSlice } from '../domain/relay-sweep';
import { stagingInstant } from './staging-instant';
import { EventScopeStatus } from './event-scope-status';

const LEASE = 'event-relay';
const BATCH = 100;
/** A staged DELETED whose document still lives this long after staging was never deleted. */
const RETIRED_GRACE_MS = 30_000;
/** How long a write on the lease holder waits for its own events to reach the outbox. */
const AFTER_WRITE_WAIT_MS = 250;
/** The document id and life of standalone events: no tool_health `_id` has this spelling (no `|`). */
const STANDALONE = 'standalone';
/**
 * How often the lease holder also sweeps every document for pending events a lost marker hides
 * (P97): a new sweep starts this long after the last one started, once that one has ended (P114).
 */
const FULL_SWEEP_MS = 5 * 60_000;

/**
 * Moves the events that writes committed inside their documents (`pendingEvents`) to
 * the outbox, then removes them from the document (D19 / P53). One instance holds the relay lease at a time,
 * and it relays one batch after the other: it reserves positions from a counter, inserts them in
 * that order, and only then takes the next batch, so positions are assigned in commit order and a
 * cursor already handed out is never passed by a later insert. A crash between insert and clear
 * re-relays the same ids, which the outbox skips (at least once, never a second copy).
 *
 * On the lease holder a write waits for its own events to be relayed (read your writes on one
 * instance); other instances' writes are picked up every EVENT_RELAY_POLL_MS. A relay failure
 * never fails the write: the events stay in the document and the next pass moves them.
 *
 * For a marker a crash lost (P97), every pass also checks a bounded slice of a sweep over
 * every document's `_id` (from the presence lists), EVENT_RELAY_SWEEP_IDS_PER_SECOND at most (P114).
 */
@Injectable()
export class EventRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRelay.name);
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Wall-clock ms until which this instance holds the lease (lease time is not domain time). */
  private leaseUntil = 0;
  private lastRenewal = 0;
  private chain: Promise<unknown> = Promise.resolve();
  /** The pass the next writes share; `created` when one of them created its document (P359). */
  private nextBatch: { ids: Set<string>; created: boolean; done: Promise<void> } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private failing = false;
  /** The running sweep (null between sweeps), and when the last one started (null: none yet, start one) (P114). */
  private sweep: DocumentIdWalk | null = null;
  private sweepStartedAt: number | null = null;
  private readonly sweepSlice: number;

  constructor(
    private readonly repository: EventRelayRepository,
    private readonly outbox: HealthEventOutbox,
    private readonly config: AppConfig,
    private readonly scopeStatus: EventScopeStatus,
  ) {
    this.sweepSlice = sweepSlice(config.eventRelaySweepIdsPerSecond, config.eventRelayPollMs);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.renew().catch(() => undefined);
    this.timer = setInterval(() => void this.tick(), this.config.eventRelayPollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.chain.catch(() => undefined);
    await this.dropSweep();
    if (this.leaseUntil > 0) await this.repository.releaseLease(LEASE, this.holder).catch(() => undefined);
    this.leaseUntil = 0;
  }

  /** True while this instance holds the lease with a safety margin left. */
  holdsLease(): boolean {
    return this.leaseUntil - this.config.eventRelayLeaseMs / 5 > Date.now();
  }

  /**
   * After a write that committed events in `docId`: relay them now when this instance holds the
   * lease, waiting at most AFTER_WRITE_WAIT_MS — the write is already durable, and a slow or
   * unreachable outbox must not hold its answer (the fail-fast of P21); the relay goes on alone.
   */
  async afterWrite(docId: string, write: { created: boolean }): Promise<boolean> {
    return this.afterWrites([docId], write);
  }

  /**
   * As afterWrite, for the documents of one bulk write (P159): one pass, one bounded wait.
   * `created`: the write created one of them. Another instance may have deleted an earlier life
   * of it since the last pass, its last events (DELETED) still staged: the pass moves staged
   * records first, so that life ends in the log before the new one begins (P359). Only then, so
   * that other writes cost no read of the staged records.
   */
  async afterWrites(docIds: readonly string[], write: { created: boolean }): Promise<boolean> {
    if (this.stopped || !this.holdsLease()) return false;
    // Writes that land while a pass runs share the next pass: one read of all their documents.
    if (!this.nextBatch) {
      const batch = { ids: new Set<string>(), created: false, done: Promise.resolve() };
      batch.done = this.run(async () => {
        if (this.nextBatch === batch) this.nextBatch = null;
        if (this.stopped) return;
        if (batch.created) await this.relayRetired();
        await this.relayDocuments([...batch.ids]);
      });
      this.nextBatch = batch;
    }
    for (const docId of docIds) this.nextBatch.ids.add(docId);
    if (write.created) this.nextBatch.created = true;
    const relayed = this.nextBatch.done.then(
      () => true,
      (error) => {
        this.logFailure(error);
        return false;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), AFTER_WRITE_WAIT_MS)));
    const answer = await Promise.race([relayed, bound]);
    clearTimeout(timer);
    return answer;
  }

  /** After a hard delete staged its events (P54): publish them now on the lease holder, bounded like afterWrite. */
  async afterDelete(): Promise<void> {
    if (this.stopped || !this.holdsLease()) return;
    const relayed = this.run(() => this.relayRetired()).catch((error) => this.logFailure(error));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, AFTER_WRITE_WAIT_MS)));
    await Promise.race([relayed, bound]);
    clearTimeout(timer);
  }

  /**
   * Events that belong to no tool_health document (maintenance windows, wider evidence): staged
   * like a deleted document's last events — their record names no document, so the relay moves
   * them on its next pass, in position order with everything else (P53) — and published at once
   * on the lease holder, bounded like afterWrite. Ids are the caller's: a re-published id is
   * skipped by the outbox.
   */
  async publish(events: readonly HealthEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.repository.stageRetired({
      id: `standalone:${randomUUID()}`,
      docId: STANDALONE,
      life: STANDALONE,
      events: [...events],
      stagedAt: stagingInstant(),
    });
    await this.afterDelete();
  }

  /**
   * On the lease holder, relays everything pending (tests): staged records, a whole sweep at once
   * (P114: every document by `_id`, a marker lost or not), then staged records and markers until
   * none is left.
   * The lease is taken or renewed first: on a loaded machine a lease can lapse between two ticks,
   * and a drain that then did nothing left a test reading half the log. Another instance's lease
   * still wins, as on every tick.
   */
  async drain(): Promise<void> {
    if (this.stopped) return;
    if (!this.holdsLease()) await this.renew();
    if (!this.holdsLease()) return;
    return this.run(async () => {
      // Staged records first, as on every tick (P359).
      await this.relayRetired();
      const walk = this.repository.walkDocumentIds();
      try {
        while (!(await this.relaySlice(walk, BATCH)));
      } finally {
        await walk.close().catch(() => undefined);
      }
      for (;;) if ((await this.relayRetired()) + (await this.relayDocuments()) === 0) return;
    });
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      if (Date.now() - this.lastRenewal >= this.config.eventRelayLeaseMs / 5) await this.renew();
      if (!this.holdsLease()) {
        // A lost lease ends the sweep; the next starts afresh, on whichever instance holds the
        // lease when one is due (at once on an instance that never swept) (P114).
        if (this.sweep) await this.run(() => this.dropSweep());
        return;
      }
      await this.run(async () => {
        if (this.stopped) return;
        // Staged records before documents: a document deleted and written again since the last
        // pass has its old life's last events (DELETED) staged, and they come before the new
        // life's (P359). Then the markers; P114: a slice of the sweep, for a marker a crash lost (P97).
        await this.relayRetired();
        await this.relayDocuments();
        await this.sweepStep();
      });
      if (this.failing) this.logger.log('event relay works again');
      this.failing = false;
    } catch (error) {
      this.logFailure(error);
    }
  }

  private async renew(): Promise<void> {
    const now = Date.now();
    const until = now + this.config.eventRelayLeaseMs;
    this.lastRenewal = now;
    this.leaseUntil = (await this.repository.acquireLease(LEASE, this.holder, now, until)) ? until : 0;
  }

  /** One relay pass at a time in this instance: that is what keeps positions in commit order. */
  private run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * The next slice of the running sweep (a new sweep when one is due), relayed like a
   * write's documents: read by `_id` alone, never a filter on the collection (P114). A failed slice
   * drops the sweep; like a lost lease, it is followed by a new sweep FULL_SWEEP_MS after the
   * dropped one started (at once if that has passed): a database too slow to answer within the
   * socket timeout, which also costs the lease now and then, is not asked for a new cursor (on
   * mongo-java-server a read of every presence list) every pass.
   */
  private async sweepStep(): Promise<void> {
    if (!this.sweep) {
      if (!sweepDue(Date.now(), this.sweepStartedAt, FULL_SWEEP_MS)) return;
      this.sweep = this.repository.walkDocumentIds();
      this.sweepStartedAt = Date.now();
    }
    try {
      if (await this.relaySlice(this.sweep, this.sweepSlice)) {
        // The end of the walk: the next one starts FULL_SWEEP_MS after this one started.
        this.sweep = null;
        this.logger.debug(`event relay sweep ended after ${Date.now() - this.sweepStartedAt!} ms`);
      }
    } catch (error) {
      await this.dropSweep();
      throw error;
    }
  }

  /** Relays the pending events of the walk's next `max` documents; true when the walk has ended. */
  private async relaySlice(walk: DocumentIdWalk, max: number): Promise<boolean> {
    const ids = await walk.next(max);
    if (ids.length > 0) await this.relayDocuments(ids);
    return ids.length < max;
  }

  /** Ends the running sweep before its end (lost lease, failure, shutdown): its cursor is closed, never resumed (P114). */
  private async dropSweep(): Promise<void> {
    const sweep = this.sweep;
    this.sweep = null;
    await sweep?.close().catch(() => undefined);
  }

  private async relayDocuments(docIds?: readonly string[]): Promise<number> {
    const pending = await this.repository.findPending(docIds ? Math.max(docIds.length, 1) : BATCH, docIds);
    // One batch for all of them: one counter reservation, one ordered insert, one clear.
    await this.move(pending.flatMap((p) => p.events));
    await this.repository.clearPending(pending);
    return pending.length;
  }

  private async relayRetired(): Promise<number> {
    let moved = 0;
    for (const record of await this.repository.findRetired(BATCH)) {
      const life = await this.repository.lifeOf(record.docId);
      if (life === record.life) {
        // The document of that life still exists: the delete is in flight, or it never happened.
        if (Date.now() - record.stagedAt > RETIRED_GRACE_MS) await this.repository.removeRetired(record.id);
        continue;
      }
      await this.move(record.events);
      await this.repository.removeRetired(record.id);
      moved += 1;
    }
    return moved;
  }

  private async move(events: readonly HealthEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (!this.holdsLease()) throw new Error('the event relay lease was lost');
    // What each event's scope reads as is settled before the events get positions (D27).
    const published = await this.scopeStatus.apply(events);
    const last = await this.repository.reservePositions(published.length);
    const first = last - published.length + 1;
    await this.outbox.insertInOrder(published.map((e, i) => ({ ...e, position: positionOf(first + i) })));
  }

  private logFailure(error: unknown): void {
    if (!this.failing)
      this.logger.warn(`event relay failed, retrying every ${this.config.eventRelayPollMs} ms: ${(error as Error).message}`);
    this.failing = true;
  }
}
