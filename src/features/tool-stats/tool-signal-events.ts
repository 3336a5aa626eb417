import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { encodeKey } from '../../domain/health-key';
import { MINUTE_MS } from '../../domain/outcome-stats';
import { Scope } from '../../domain/scope';
import { SignalChange, ToolSignals, signalPayload } from '../../domain/tool-signals';
import { ToolStatus } from '../../domain/tool-status';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { EventRelay } from '../../write-path/event-relay.service';
import { ToolSignalChange, ToolSignalsService } from './tool-signals.service';

/**
 * The one place a signal's event is shaped (P305). It is about the tool for everyone (its GLOBAL
 * key) and carries the stored GLOBAL status unchanged — a signal changes none. Its id names the
 * signal, start or end, and the recent period (STATS_RECENT_MINUTES) it fell in, so the instances
 * that see the same change in that period write the same id and the outbox keeps one (D13).
 */
export function signalEvent(input: {
  toolName: string;
  change: SignalChange;
  signals: ToolSignals;
  status: ToolStatus;
  at: Date;
  periodMs: number;
}): HealthEvent {
  const key = { scope: Scope.GLOBAL, scopeId: null, toolName: input.toolName };
  const docId = encodeKey(key);
  const type = input.change.started ? HealthEventType.SIGNAL_STARTED : HealthEventType.SIGNAL_ENDED;
  return {
    id: `signal:${docId}:${input.change.signal}:${type}:${Math.floor(input.at.getTime() / input.periodMs)}`,
    docId,
    ...key,
    status: input.status,
    // A signal changes no status: the key reads as it did (a pin is not known here).
    effectiveStatus: input.status,
    tenantId: null,
    at: input.at,
    type,
    payload: signalPayload(input.change.signal, input.signals),
  };
}

/** Issue 39: each start and end of a signal becomes an event in the outbox, so subscriptions and webhooks hear of it. */
@Injectable()
export class ToolSignalEvents implements OnModuleInit {
  private readonly logger = new Logger(ToolSignalEvents.name);

  constructor(
    private readonly signals: ToolSignalsService,
    private readonly relay: EventRelay,
    private readonly health: ToolHealthRepository,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.signals.onChanges((changes) => this.publish(changes));
  }

  async publish(changes: readonly ToolSignalChange[]): Promise<void> {
    // The stored GLOBAL statuses of the tools concerned, in one read (changes are rare).
    const ids = [...new Set(changes.map((c) => encodeKey({ scope: Scope.GLOBAL, scopeId: null, toolName: c.toolName })))];
    const docs = await this.health.findManyByIds(ids);
    const events = changes.map((c) =>
      signalEvent({
        toolName: c.toolName,
        change: c,
        signals: c.signals,
        status: docs.get(encodeKey({ scope: Scope.GLOBAL, scopeId: null, toolName: c.toolName }))?.status ?? ToolStatus.OK,
        at: c.at,
        periodMs: this.config.statsRecentMinutes * MINUTE_MS,
      }),
    );
    await this.relay.publish(events);
    this.logger.log(`signals: ${events.map((e) => `${e.toolName} ${e.type} ${(e.payload as { signal: string }).signal}`).join(', ')}`);
  }
}
