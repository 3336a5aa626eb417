import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Collection } from 'mongodb';
import { Connection } from 'mongoose';
import { AppConfig } from '../config/app-config';

/** The lease document: one per database, `_id: 'writer'`. */
interface LeaseRecord {
  _id: 'writer';
  holder: string;
  expiresAt: Date;
}

export const LEASE_COLLECTION = 'service_leases';

export type LeaseState =
  | { mode: 'not-needed' }
  | { mode: 'held'; holder: string; until: number }
  | { mode: 'waiting'; holder: string | null; expiresAt: Date | null };

/**
 * P40: on a single-writer database (D3: writes by `_id` under the in-process lock only, so two
 * instances on one database could overwrite each other's writes) exactly one instance may write.
 * It holds a lease in the database itself: one document `{_id: 'writer', holder, expiresAt}`,
 * taken with one atomic findOneAndUpdate whose filter matches only a free, expired or own lease
 * (an upsert that meets another holder's live lease fails on the unique `_id`), and renewed every
 * WRITER_LEASE_RENEW_MS for WRITER_LEASE_TTL_MS. An instance without the lease is unready, says
 * why (`blockedReason`), refuses requests (RequestDeadlineInterceptor) and keeps trying, so it
 * takes over once the holder stops (released on shutdown) or dies (its lease expires).
 *
 * The holder counts its lease as lost at `sent + TTL` of its last successful renewal, by its own
 * clock, before the database lets anyone else take it: a holder whose renewals fail (database
 * away, frozen process) stops writing no later than a successor could start. Expiry instants are
 * wall-clock times written by the instances; they share the embedded database's host, so their
 * clocks agree. Real time, not the injected Clock: the lease is about processes, not the spec's
 * instants. On a multi-writer database (MongoDB) nothing of this runs.
 */
@Injectable()
export class WriterLease implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WriterLease.name);
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private state: LeaseState;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private attempt: Promise<void> = Promise.resolve();
  private lastLogged = '';

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly config: AppConfig,
  ) {
    this.state = config.dbSingleWriter ? { mode: 'waiting', holder: null, expiresAt: null } : { mode: 'not-needed' };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.dbSingleWriter) return;
    await this.renew();
    this.timer = setInterval(() => void this.renew(), this.config.writerLeaseRenewMs);
    this.timer.unref();
  }

  /**
   * Released right after the last write of a stopping instance: the bookkeeping buffer's final
   * flush (D10b) calls `release()` in its shutdown hook, after the HTTP server drained and before
   * the mongoose connection closes (this global module's own shutdown hook runs after that
   * close, too late to write). Here only the timer stops, in case nothing released it.
   */
  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Stops renewing and deletes the lease if it is ours, so a waiting instance takes over at once. */
  async release(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.attempt;
    if (this.state.mode !== 'held') return;
    this.state = { mode: 'waiting', holder: null, expiresAt: null };
    await this.collection()
      .deleteOne({ _id: 'writer', holder: this.holder })
      .catch((error) => this.logger.warn(`could not release the writer lease: ${(error as Error).message}`));
  }

  /** True when this instance may write: a multi-writer database, or the lease is ours and live. */
  get mayWrite(): boolean {
    const s = this.state;
    return s.mode === 'not-needed' || (s.mode === 'held' && Date.now() < s.until);
  }

  /** Why this instance may not write, or null. */
  blockedReason(): string | null {
    if (this.mayWrite) return null;
    const s = this.state;
    if (s.mode === 'waiting' && s.holder) {
      return `another instance holds the writer lease on this embedded database (holder ${s.holder}, expires ${s.expiresAt?.toISOString()}); DB_SINGLE_WRITER=true allows one instance per database (D3). Retrying every ${this.config.writerLeaseRenewMs} ms`;
    }
    return 'this instance does not hold the writer lease on this embedded database (not acquired yet, or its renewal failed); retrying';
  }

  get current(): LeaseState {
    return this.state;
  }

  /** One acquisition or renewal; never two at once. */
  renew(): Promise<void> {
    this.attempt = this.attempt.then(() => this.renewOnce());
    return this.attempt;
  }

  private collection(): Collection<LeaseRecord> {
    return this.connection.getClient().db(this.connection.db!.databaseName).collection<LeaseRecord>(LEASE_COLLECTION);
  }

  private async renewOnce(): Promise<void> {
    if (this.stopped || !this.connection.db) return;
    const sentAt = Date.now();
    const ttl = this.config.writerLeaseTtlMs;
    try {
      const lease = await this.collection().findOneAndUpdate(
        // Free (no document: the upsert inserts it), expired, or ours. Another holder's live
        // lease matches nothing, and the upsert then fails on the unique `_id` (E11000).
        { _id: 'writer', $or: [{ holder: this.holder }, { expiresAt: { $lt: new Date(sentAt) } }] },
        { $set: { holder: this.holder, expiresAt: new Date(sentAt + ttl) } },
        { upsert: true, returnDocument: 'after', maxTimeMS: this.config.writerLeaseRenewMs },
      );
      if (this.stopped) return;
      if (lease?.holder === this.holder) {
        if (this.state.mode !== 'held') this.log('log', `writer lease acquired (holder ${this.holder}, TTL ${ttl} ms)`);
        this.state = { mode: 'held', holder: this.holder, until: sentAt + ttl };
        return;
      }
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) {
        // The database is away: keep the lease until its own expiry; the next renewal retries.
        this.log('warn', `writer lease renewal failed: ${(error as Error).message}`);
        if (this.state.mode === 'held' && Date.now() >= this.state.until) this.state = { mode: 'waiting', holder: null, expiresAt: null };
        return;
      }
    }
    const other = await this.collection()
      .findOne({ _id: 'writer' })
      .catch(() => null);
    if (this.stopped) return;
    this.state = { mode: 'waiting', holder: other?.holder ?? null, expiresAt: other?.expiresAt ?? null };
    this.log('warn', `not ready: ${this.blockedReason()}`);
  }

  /** Logs a message once, not every renewal. */
  private log(level: 'log' | 'warn', message: string): void {
    const key = message.replace(/expires \S+/, '');
    if (key === this.lastLogged) return;
    this.lastLogged = key;
    this.logger[level](message);
  }
}
