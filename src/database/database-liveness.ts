import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MongoClient } from 'mongodb';
import { Connection } from 'mongoose';
import { AppConfig } from '../config/app-config';

const MAX_IN_FLIGHT = 3;
/** A ping client that failed this long is replaced (its monitoring may be stalled, P21). */
const RENEW_CLIENT_AFTER_MS = 5000;

/**
 * Whether the database answers, known before a request needs it (P41). A `ping` every
 * DB_PING_INTERVAL_MS on a client of its own (two connections), so a busy request pool never
 * delays it; the database counts as answering while the last successful ping is younger than
 * one interval plus DB_PING_TIMEOUT_MS and the service's own connection is open. A ping that
 * fails (connection refused or reset) flips it at once; one that never returns (frozen database,
 * black hole) flips it when it is overdue; the first ping that succeeds again flips it back.
 * Readiness, the request deadline and the write queue read it; nothing runs per request.
 */
@Injectable()
export class DatabaseLiveness implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseLiveness.name);
  private timer: NodeJS.Timeout | undefined;
  private client: MongoClient | null = null;
  /** Send instants of the pings not answered yet. */
  private readonly pending = new Set<number>();
  /** The latest answer: whether it succeeded, and when the ping that got it was sent. */
  private lastOk = false;
  private lastAnsweredSentAt = 0;
  private lastTickAt = 0;
  /** When an operation of the service's own client last gave its connection back. */
  private progressAt = 0;
  private failingSince = 0;
  private wasUp = false;
  private stopped = false;
  /** When the database last came back after an outage; -Infinity if it never went away. */
  private backSince = -Infinity;
  private everUp = false;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.connection.getClient().on('connectionCheckedIn', () => (this.progressAt = Date.now()));
    await this.ping();
    this.timer = setInterval(() => void this.ping(), this.config.dbPingIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.client?.close().catch(() => undefined);
  }

  /**
   * True while the latest answered ping succeeded and no later ping is overdue. A busy database
   * is not a silent one: a ping is not overdue while the service's own operations keep
   * completing (its client's connections come back to the pool), nor by this process's own
   * event-loop lag (how late the ping timer itself runs). A frozen or black-holed database
   * completes nothing, and is noticed while the loop runs on time.
   */
  get up(): boolean {
    if (this.connection.readyState !== 1 || !this.lastOk) return false;
    const now = Date.now();
    const allowed = this.config.dbPingTimeoutMs + Math.max(0, now - this.lastTickAt - this.config.dbPingIntervalMs);
    if (now - this.progressAt <= allowed) return true;
    for (const sentAt of this.pending) {
      if (sentAt > this.lastAnsweredSentAt && now - sentAt > allowed) return false;
    }
    return true;
  }

  /**
   * Up since before `instant` (epoch ms): the database answered all along since then, so a
   * request sent at `instant` that is slow is slow for another reason than the database's
   * absence (the request deadline, src/database/request-deadline.ts). False for a request sent during an outage, even once
   * the database is back: its wait is the outage's.
   */
  upSince(instant: number): boolean {
    return this.up && this.backSince <= instant;
  }

  /**
   * A write queued at `queuedAt` whose turn comes only now belongs to a request that has already
   * answered 503 at its deadline (the database was away since it was sent): skip it rather than
   * apply it long after its caller gave up (MongoToolHealthRepository#mutate). Without this, the
   * writes to a hot key abandoned during an outage would run one by one after it, and every new
   * write to that key would wait behind them.
   */
  abandoned(queuedAt: number): boolean {
    return Date.now() - queuedAt >= this.config.requestDeadlineMs && !this.upSince(queuedAt);
  }

  private pingClient(): MongoClient {
    const { mongodbUri, dbPingTimeoutMs, dbSocketTimeoutMs } = this.config;
    this.client ??= new MongoClient(mongodbUri, {
      maxPoolSize: MAX_IN_FLIGHT,
      serverSelectionTimeoutMS: Math.max(dbPingTimeoutMs, 500),
      connectTimeoutMS: Math.max(dbPingTimeoutMs, 1000),
      socketTimeoutMS: dbSocketTimeoutMs,
    });
    return this.client;
  }

  private async ping(): Promise<void> {
    this.lastTickAt = Date.now();
    this.report();
    if (this.stopped) return;
    // A ping stuck on a silent connection waits out the socket timeout: send another beside it
    // once the latest is overdue (it may go out on a fresh connection), but never pile them up.
    const latest = Math.max(0, ...this.pending);
    if (this.pending.size >= MAX_IN_FLIGHT || (latest && Date.now() - latest < this.config.dbPingTimeoutMs)) return;
    const sentAt = Date.now();
    this.pending.add(sentAt);
    let ok = false;
    try {
      await this.pingClient().db('admin').command({ ping: 1 });
      ok = true;
      this.failingSince = 0;
    } catch {
      this.failingSince ||= sentAt;
      if (Date.now() - this.failingSince > RENEW_CLIENT_AFTER_MS) this.renewClient();
    } finally {
      this.pending.delete(sentAt);
      // A stale ping answering late says nothing about a newer one.
      if (sentAt >= this.lastAnsweredSentAt) {
        this.lastAnsweredSentAt = sentAt;
        this.lastOk = ok;
      }
      this.report();
    }
  }

  private renewClient(): void {
    const old = this.client;
    this.client = null;
    this.failingSince = Date.now();
    this.pending.clear();
    void old?.close().catch(() => undefined);
  }

  /** One log line per change, not per ping. */
  private report(): void {
    const up = this.up;
    if (up === this.wasUp) return;
    this.wasUp = up;
    if (up && this.everUp) this.backSince = Date.now();
    if (up) this.everUp = true;
    if (up) this.logger.log('database answers');
    else if (!this.stopped) this.logger.warn('database does not answer: readiness false until it does');
  }
}
