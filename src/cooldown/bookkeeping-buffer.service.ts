import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { cooldownEntryKey } from '../domain/cooldown-policy';
import { BufferedBookkeeping, CooldownHit, applyBufferedBookkeeping } from '../domain/failure-check';
import { decodeKey } from '../domain/health-key';
import { ToolHealthRepository } from '../persistence/tool-health.repository';
import { WriterLease } from '../persistence/writer-lease';

interface Pending {
  hits: Map<string, { count: number; lastTriggeredAt: Date }>;
  lastFailureAt: Date | null;
}

/**
 * D10b: cooldown hits and lastFailureAt are counted in memory and flushed in one write per
 * document, so a hot key in an outage costs one write per interval, not one per failure.
 * Totals stay exact: counts are added on flush, and a failed flush puts them back.
 */
@Injectable()
export class BookkeepingBuffer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(BookkeepingBuffer.name);
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: ToolHealthRepository,
    private readonly config: AppConfig,
    private readonly lease: WriterLease,
  ) {}

  onModuleInit(): void {
    if (this.config.bookkeepingFlushMs > 0) {
      this.timer = setInterval(() => void this.flush().catch((e) => this.logger.warn(`flush failed: ${(e as Error).message}`)), this.config.bookkeepingFlushMs);
      this.timer.unref();
    }
  }

  /** The final flush is a stopping instance's last write: the writer lease goes right after it (P40). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.flush();
    } finally {
      await this.lease.release();
    }
  }

  recordHit(hit: CooldownHit, at: Date): void {
    const pending = this.entry(hit.docId);
    const key = cooldownEntryKey(hit.errorSignature, hit.userId);
    const current = pending.hits.get(key);
    pending.hits.set(key, { count: (current?.count ?? 0) + 1, lastTriggeredAt: later(current?.lastTriggeredAt, at) });
  }

  recordFailure(docId: string, at: Date): void {
    const pending = this.entry(docId);
    pending.lastFailureAt = later(pending.lastFailureAt ?? undefined, at);
  }

  /** With no flush interval configured, bookkeeping is written at once. */
  async settle(): Promise<void> {
    if (this.config.bookkeepingFlushMs === 0) await this.flush();
  }

  /** Writes everything buffered so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow(), () => this.flushNow());
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
    const failures: unknown[] = [];
    await Promise.all(
      [...batch].map(async ([docId, pending]) => {
        const bookkeeping: BufferedBookkeeping = { hits: pending.hits, lastFailureAt: pending.lastFailureAt };
        try {
          // A document deleted meanwhile stays deleted: bookkeeping never recreates one.
          await this.repository.mutate(decodeKey(docId), (doc) => (doc ? applyBufferedBookkeeping(doc, bookkeeping) : doc));
        } catch (error) {
          this.restore(docId, pending);
          failures.push(error);
        }
      }),
    );
    if (failures.length > 0) throw failures[0];
  }

  private restore(docId: string, pending: Pending): void {
    const into = this.entry(docId);
    for (const [key, hit] of pending.hits) {
      const current = into.hits.get(key);
      into.hits.set(key, { count: (current?.count ?? 0) + hit.count, lastTriggeredAt: later(current?.lastTriggeredAt, hit.lastTriggeredAt) });
    }
    if (pending.lastFailureAt) into.lastFailureAt = later(into.lastFailureAt ?? undefined, pending.lastFailureAt);
  }

  private entry(docId: string): Pending {
    let pending = this.pending.get(docId);
    if (!pending) {
      pending = { hits: new Map(), lastFailureAt: null };
      this.pending.set(docId, pending);
    }
    return pending;
  }
}

function later(a: Date | undefined, b: Date): Date {
  return a && a.getTime() > b.getTime() ? a : b;
}
