import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MongoClient } from 'mongodb';
import { Connection } from 'mongoose';
import { AppConfig } from '../config/app-config';

const MAX_IN_FLIGHT = 3;
/** A ping client that failed this long is replaced (its monitoring may be stalled, P21). */
const RENEW_CLIENT_AFTER_MS = 5000;

/**
 * P41: whether the database answers, known before a request needs it. A `ping` every
 * DB_PING_INTERVAL_MS on a client of its own (two connections), so a busy request pool never
 * delays it; the database counts as answering while the last successful ping is younger than
 * one interval plus DB_PING_TIMEOUT_MS and the service's own connection is open. A ping that
 * fails (connection refused or reset) flips it at once; one that never returns (frozen database,
 * black hole) flips it when it is overdue; the first ping that succeeds again flips it back.
 * Readiness and the request deadline read it; nothing runs per request.
 */
@Injectable()
export class DatabaseLiveness implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseLiveness.name);
  private timer: NodeJS.Timeout | undefined;
  private client: MongoClient | null = null;
  /** Pings sent and not answered yet, and when the latest was sent. */
  private inFlight = 0;
  private sentAt = 0;
  private lastOkAt = 0;
  private failingSince = 0;
  private wasUp = false;
  private stopped = false;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ping();
    this.timer = setInterval(() => void this.ping(), this.config.dbPingIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.client?.close().catch(() => undefined);
  }

  /** True while the database answered a ping recently enough. */
  get up(): boolean {
    return this.connection.readyState === 1 && Date.now() - this.lastOkAt <= this.config.dbPingIntervalMs + this.config.dbPingTimeoutMs;
  }

  private pingClient(): MongoClient {
    const { mongodbUri, dbPingTimeoutMs, dbSocketTimeoutMs } = this.config;
    this.client ??= new MongoClient(mongodbUri, {
      maxPoolSize: 2,
      serverSelectionTimeoutMS: dbPingTimeoutMs,
      connectTimeoutMS: Math.max(dbPingTimeoutMs, 1000),
      socketTimeoutMS: dbSocketTimeoutMs,
      waitQueueTimeoutMS: dbPingTimeoutMs,
    });
    return this.client;
  }

  private async ping(): Promise<void> {
    this.report();
    if (this.stopped) return;
    // A ping stuck on a silent connection waits out the socket timeout: send another beside it
    // once it is overdue (it may go out on a fresh connection), but never pile them up.
    if (this.inFlight > 0 && (this.inFlight >= MAX_IN_FLIGHT || Date.now() - this.sentAt < this.config.dbPingTimeoutMs)) return;
    this.inFlight++;
    const sentAt = (this.sentAt = Date.now());
    try {
      await this.pingClient().db('admin').command({ ping: 1 });
      this.lastOkAt = Date.now();
      this.failingSince = 0;
    } catch {
      // A stale ping failing late says nothing about a newer one that succeeded.
      if (sentAt > this.lastOkAt) this.lastOkAt = 0;
      this.failingSince ||= sentAt;
      if (Date.now() - this.failingSince > RENEW_CLIENT_AFTER_MS) this.renewClient();
    } finally {
      this.inFlight--;
      this.report();
    }
  }

  private renewClient(): void {
    const old = this.client;
    this.client = null;
    this.failingSince = Date.now();
    void old?.close().catch(() => undefined);
  }

  /** One log line per change, not per ping. */
  private report(): void {
    const up = this.up;
    if (up === this.wasUp) return;
    this.wasUp = up;
    if (up) this.logger.log('database answers');
    else if (!this.stopped) this.logger.warn('database does not answer: readiness false until it does');
  }
}
