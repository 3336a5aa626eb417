import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { cooldownEntryKey } from '../../domain/cooldown-policy';
import { CooldownHit } from '../../domain/failure-check';
import { BookkeepingFlush } from '../../persistence/tool-health/bookkeeping-update';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';

/**
 * One cooldown entry's hits since the last flush, counted in place, its instant kept as a number.
 * What is buffered lives until the flush, long enough for the young generation to copy it and
 * then promote it: a new entry and a Date per hit made each scavenge of a failure storm copy more
 * (P370).
 */
interface PendingHit {
  readonly errorSignature: string;
  readonly userId: string | null;
  count: number;
  lastTriggeredMs: number;
}

interface Pending {
  hits: Map<string, PendingHit>;
  lastFailureMs: number | null;
}

/**
 * Cooldown hits and lastFailureAt are counted in memory and flushed every
 * BOOKKEEPING_FLUSH_MS, all buffered documents in unordered bulk writes of a few dozen (P113),
 * so a hot key in an outage costs one update per interval, not one per failure, and a flush
 * costs a round trip per chunk, not per document (issue 13) (D10b).
 *
 * Totals stay exact when a flush's reply is lost (P42). Each flush carries an id that every
 * update of it records on its document, and that the update's filter requires absent
 * (bookkeepingUpdate): a flush whose outcome is unknown (network error, timeout) is kept as it
 * was sent and resent with the same id before anything new, so the documents that had applied
 * it skip it and the others apply it. What arrives meanwhile waits in the buffer for the next
 * flush (at most one unconfirmed flush at a time).
 */
@Injectable()
export class BookkeepingBuffer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(BookkeepingBuffer.name);
  private pending = new Map<string, Pending>();
  /** Sent, outcome unknown: resent unchanged (same flush id) by the next flush. */
  private unconfirmed: BookkeepingFlush | null = null;
  private readonly instanceTag = randomBytes(6).toString('base64url');
  private sequence = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: ToolHealthRepository,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.bookkeepingFlushMs > 0) {
      this.timer = setInterval(
        () => void this.flush().catch((e) => this.logger.warn(`flush failed: ${(e as Error).message}`)),
        this.config.bookkeepingFlushMs,
      );
      this.timer.unref();
    }
  }

  /** The final flush is a stopping instance's last write (D10b). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  recordHit(hit: CooldownHit, at: Date): void {
    const pending = this.entry(hit.docId);
    const key = cooldownEntryKey(hit.errorSignature, hit.userId);
    const current = pending.hits.get(key);
    const atMs = at.getTime();
    if (current) {
      current.count++;
      if (atMs > current.lastTriggeredMs) current.lastTriggeredMs = atMs;
    } else {
      pending.hits.set(key, { errorSignature: hit.errorSignature, userId: hit.userId, count: 1, lastTriggeredMs: atMs });
    }
  }

  recordFailure(docId: string, at: Date): void {
    const pending = this.entry(docId);
    const atMs = at.getTime();
    if (pending.lastFailureMs === null || atMs > pending.lastFailureMs) pending.lastFailureMs = atMs;
  }

  /** With no flush interval configured, bookkeeping is written at once. */
  async settle(): Promise<void> {
    if (this.config.bookkeepingFlushMs === 0) await this.flush();
  }

  /** Writes everything buffered so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(
      () => this.flushNow(),
      () => this.flushNow(),
    );
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    if (this.unconfirmed === null && this.pending.size === 0) return;
    if (this.unconfirmed) {
      await this.repository.applyBookkeeping([this.unconfirmed]);
      this.unconfirmed = null;
    }
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const flush: BookkeepingFlush = {
      flushId: `${this.instanceTag}.${(++this.sequence).toString(36)}`,
      writes: [...batch].map(([id, p]) => ({
        id,
        hits: [...p.hits.values()].map((h) => ({
          errorSignature: h.errorSignature,
          userId: h.userId,
          count: h.count,
          lastTriggeredAt: new Date(h.lastTriggeredMs),
        })),
        lastFailureAt: p.lastFailureMs === null ? null : new Date(p.lastFailureMs),
      })),
      resent: false,
    };
    this.unconfirmed = { ...flush, resent: true };
    await this.repository.applyBookkeeping([flush]);
    this.unconfirmed = null;
  }

  private entry(docId: string): Pending {
    let pending = this.pending.get(docId);
    if (!pending) {
      pending = { hits: new Map(), lastFailureMs: null };
      this.pending.set(docId, pending);
    }
    return pending;
  }
}
