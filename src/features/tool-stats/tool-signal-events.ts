import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { encodeKey } from '../../domain/health-key';
import { MINUTE_MS } from '../../domain/outcome-stats';
import { Scope } from '../../domain/scope';
import { SignalChange, SignalKind, SignalPayload, ToolSignals, signalPayload } from '../../domain/tool-signals';
import { ToolStatus } from '../../domain/tool-status';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { EventRelay } from '../../write-path/event-relay.service';
import { ToolSignalChange, ToolSignalsService } from './tool-signals.service';
import { Float } from '@nestjs/graphql';
import { NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType, enumView } from '../../shapes/view-field';
import { EventRows, INTEGER } from '../../shapes/event-row';

const SHARE: ViewFieldOptions = { type: () => Float, nullable: true, openapi: { type: 'number', minimum: 0, maximum: 1 } };
const NULLABLE_INTEGER: ViewFieldOptions = { ...INTEGER, nullable: true };

@ViewType(
  'SignalPayload',
  "The payload of a SIGNAL_STARTED or SIGNAL_ENDED event: a tool's recent calls started or stopped failing often or being slow compared with its usual. Evidence only: the status is unchanged.",
)
export class SignalPayloadView implements SignalPayload {
  @ViewField('Which signal started or ended.', enumView(SignalKind, 'SignalKind')) signal: SignalKind;
  @ViewField('The signals on after the change, in words as the LLM reads them; null when none is left.', NULLABLE_STRING)
  text: string | null;
  @ViewField('Calls in the recent minutes when it started; null when it ended.', NULLABLE_INTEGER) recentCalls: number | null;
  @ViewField('Failing often: the recent success rate, 0 … 1.', SHARE) recentSuccessRate: number | null;
  @ViewField('Failing often: the usual success rate, 0 … 1.', SHARE) usualSuccessRate: number | null;
  @ViewField('Slow: the recent 95th percentile duration, ms.', NULLABLE_INTEGER) recentP95Ms: number | null;
  @ViewField('Slow: the usual 95th percentile duration, ms.', NULLABLE_INTEGER) usualP95Ms: number | null;
}

/** The signal events' rows of the event catalogue: evidence beside the status, which the line states as it is. */
export const SIGNAL_EVENTS = {
  [HealthEventType.SIGNAL_STARTED]: {
    description: "A tool's recent calls started failing often or being slow compared with its usual: evidence, the status is unchanged.",
    payload: SignalPayloadView,
    summary: (event, { head, words }) => `${head}, but ${event.payload.text ?? `${words(event.payload.signal)} right now`}`,
  },
  [HealthEventType.SIGNAL_ENDED]: {
    description: 'That signal ended: the recent calls are back near the usual, or too few to tell.',
    payload: SignalPayloadView,
    summary: (event, { head }) =>
      `${head} — no longer ${event.payload.signal === SignalKind.SLOW ? 'slow' : 'failing often'}${event.payload.text ? ` (still ${event.payload.text})` : ''}`,
  },
} satisfies EventRows;

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
