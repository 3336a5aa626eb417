import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { CooldownService } from './cooldown.service';

/** Runs the D9 sweep every SWEEP_INTERVAL_MS (0 = off, the default in tests). */
@Injectable()
export class CooldownSweepJob implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CooldownSweepJob.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly cooldowns: CooldownService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.sweepIntervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.config.sweepIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.running) return; // a slow sweep never overlaps the next one
    this.running = true;
    try {
      const result = await this.cooldowns.sweep();
      if (result.removed > 0) this.logger.log(`swept ${result.removed} cooldown entries from ${result.documents} documents`);
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
