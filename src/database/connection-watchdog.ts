import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { MongoClient } from 'mongodb';
import { Connection } from 'mongoose';

const TICK_MS = 1000;

/**
 * Restarts the driver's server monitoring when a heartbeat never finishes (docs/decisions.md
 * P21). A backstop: the stall below was seen in about a third of the proxy cuts of
 * test/persistent/db-faults.e2e-spec.ts until installMongodbWriteGuard removed its cause; any other stall of
 * the monitor would leave the service unable to recover just the same.
 *
 * mongodb 6.20 (and 6.22): when the database's connections all drop at once, the monitor can
 * send its `hello` on its old connection after the socket closed but before the driver saw the
 * close; the write then waits for a 'drain' that never comes. The check never settles, the
 * server stays Unknown, every operation fails server selection, and the service never recovers
 * by itself. A heartbeat is bounded by the driver's own timeouts (connect + handshake, plus the
 * awaited `hello` of the streaming protocol), so one pending longer than that is stalled: the
 * watchdog closes the client and connects it again (public MongoClient API; mongoose's listeners
 * sit on the client and stay), retrying each second while the database is still away. Requests
 * meanwhile fail fast with 503 (MongoNotConnectedError).
 */
@Injectable()
export class ConnectionWatchdog implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ConnectionWatchdog.name);
  private timer: NodeJS.Timeout | undefined;
  private pending: { since: number; awaited: boolean } | null = null;
  private reconnecting = false;
  private stopped = false;
  /** How many times monitoring was restarted (for tests and logs). */
  restarts = 0;

  constructor(@InjectConnection() private readonly connection: Connection) {}

  onApplicationBootstrap(): void {
    const client = this.client();
    client.on('serverHeartbeatStarted', (event) => {
      this.pending = { since: Date.now(), awaited: event.awaited };
    });
    client.on('serverHeartbeatSucceeded', () => (this.pending = null));
    client.on('serverHeartbeatFailed', () => (this.pending = null));
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Before any module's shutdown hook: never reopen a client the shutdown is closing. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** The longest a heartbeat may take before it counts as stalled. */
  stallAfterMs(awaited: boolean): number {
    const { connectTimeoutMS, heartbeatFrequencyMS } = this.client().options;
    const connect = connectTimeoutMS > 0 ? connectTimeoutMS : 30_000;
    return 2 * connect + (awaited ? heartbeatFrequencyMS : 0) + 1000;
  }

  private client(): MongoClient {
    return this.connection.getClient() as unknown as MongoClient;
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.reconnecting) return;
    const pending = this.pending;
    if (!pending || Date.now() - pending.since <= this.stallAfterMs(pending.awaited)) return;
    this.reconnecting = true;
    this.pending = null;
    this.restarts++;
    this.logger.warn(`database monitoring stalled for ${Date.now() - pending.since} ms (mongodb driver); reconnecting`);
    try {
      await this.client()
        .close()
        .catch(() => undefined);
      while (!this.stopped) {
        try {
          await this.client().connect();
          this.logger.log('database monitoring restarted');
          return;
        } catch (error) {
          this.logger.warn(`reconnect failed: ${(error as Error).message}; retrying`);
          await new Promise((resolve) => setTimeout(resolve, TICK_MS).unref());
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }
}
