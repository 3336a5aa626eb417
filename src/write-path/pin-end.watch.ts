import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../runtime/clock';
import { AppConfig } from '../config/app-config';
import { decodeKey } from '../domain/health-key';
import { endPin } from '../domain/pin';
import { EventRelayRepository } from '../persistence/health-events/event-relay.repository';
import { EventRelay } from './event-relay.service';
import { HealthStore } from './health-store.service';

const BATCH = 100;

/**
 * A pin that ends by itself is an event (P55). Every PIN_WATCH_MS the instance holding the event
 * relay lease removes pins that have run out (history item, PIN_ENDED). The write is an ordinary
 * guarded write of the reducer `endPin`, so a second instance doing the same finds nothing to do.
 */
@Injectable()
export class PinEndWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PinEndWatch.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly relayState: EventRelayRepository,
    private readonly relay: EventRelay,
    private readonly store: HealthStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.pinWatchMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running || !this.relay.holdsLease()) return;
      void this.runOnce().catch((error) => this.logger.warn(`pin watch failed: ${(error as Error).message}`));
    }, this.config.pinWatchMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Ends every pin that has run out; returns how many. */
  runOnce(): Promise<number> {
    this.running ??= this.endAll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async endAll(): Promise<number> {
    let ended = 0;
    const now = this.clock.now();
    for (const id of await this.relayState.findPinsEndedBy(now, BATCH)) {
      const result = await this.store.write(decodeKey(id), null, (env) => endPin(env));
      if (result.written) ended += 1;
      // Handled (or cleared, or gone); a newer pin has moved its marker past `now` and stays.
      await this.relayState.dropPinMarker(id, now);
    }
    return ended;
  }
}
