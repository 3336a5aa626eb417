import { ID } from '@nestjs/graphql';
import { encodeKey } from '../../domain/health-key';
import { HealthEvent, HealthEventType, tenantOfKey } from '../../domain/health-events';
import { MaintenancePayload, MaintenanceWindow, maintenancePayload } from '../../domain/maintenance-window';
import { ToolStatus } from '../../domain/tool-status';
import { INSTANT, ViewField, ViewType } from '../../shapes/view-field';
import { EventRows } from '../../shapes/event-row';

@ViewType(
  'MaintenancePayload',
  'The payload of a MAINTENANCE_STARTING, MAINTENANCE_STARTED or MAINTENANCE_ENDED event: a maintenance window starts soon, began or ended.',
)
export class MaintenancePayloadView implements MaintenancePayload {
  @ViewField('The window.', { type: () => ID, openapi: { type: String } }) windowId: string;
  @ViewField('When the window begins.', INSTANT) from: Date;
  @ViewField('When the tool is expected back.', INSTANT) until: Date;
  @ViewField('Why the tool is under maintenance, in words an LLM may read.') reason: string;
  @ViewField('The admin who scheduled or last changed it.') by: string;
  @ViewField('Set when the window ended because it was cancelled.', { ...INSTANT, nullable: true }) cancelledAt: Date | null;
}

/** The maintenance events' rows of the event catalogue, in the order a window lives them. */
export const MAINTENANCE_EVENTS = {
  [HealthEventType.MAINTENANCE_STARTING]: {
    description: 'A maintenance window (or an occurrence of a recurring one) starts within MAINTENANCE_WARNING_LEAD_MINUTES.',
    payload: MaintenancePayloadView,
    summary: (event, { where, clock, clip }) =>
      `${event.toolName} ${where}: maintenance starts at ${clock(event.payload.from)}, expected back at ${clock(event.payload.until)} (${clip(event.payload.reason)})`,
  },
  [HealthEventType.MAINTENANCE_STARTED]: {
    description: 'A maintenance window began.',
    payload: MaintenancePayloadView,
    summary: (event, { where, clock, clip }) =>
      `${event.toolName} is under maintenance ${where}, expected back at ${clock(event.payload.until)} (${clip(event.payload.reason)})`,
  },
  [HealthEventType.MAINTENANCE_ENDED]: {
    description: 'A maintenance window ended, or was cancelled while in force.',
    payload: MaintenancePayloadView,
    summary: (event, { head, clip }) =>
      `${head} — maintenance ${event.payload.cancelledAt ? 'cancelled' : 'ended'} (${clip(event.payload.reason)})`,
  },
} satisfies EventRows;

/**
 * The one place a maintenance event is shaped (P77). It points at the health key the window
 * covers; `status` is DOWN for a start and the stored status of that key for an end (what reads
 * once the window is gone) or a warning (P192: what reads until it starts). An occurrence of a
 * series (P190) is a window of its own here: its id names the series and the occurrence. The id is fixed per window and type, so an instance that writes it
 * again (two instances ticking at once, a retry) adds nothing: the outbox keeps ids unique (D13).
 */
export function maintenanceEvent(
  type: HealthEventType.MAINTENANCE_STARTING | HealthEventType.MAINTENANCE_STARTED | HealthEventType.MAINTENANCE_ENDED,
  window: MaintenanceWindow,
  status: ToolStatus,
  at: Date,
): HealthEvent {
  const docId = encodeKey(window);
  return {
    id: `maintenance:${window.id}:${type}`,
    docId,
    scope: window.scope,
    scopeId: window.scopeId,
    toolName: window.toolName,
    status,
    // What the key reads as: DOWN while the window is in force, else the status given (P228).
    effectiveStatus: type === HealthEventType.MAINTENANCE_STARTED ? ToolStatus.DOWN : status,
    tenantId: tenantOfKey(window),
    at,
    type,
    payload: maintenancePayload(window),
  };
}
