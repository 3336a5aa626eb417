import { encodeKey } from '../../domain/health-key';
import { HealthEvent, HealthEventType, tenantOfKey } from '../../domain/health-events';
import { MaintenanceWindow, maintenancePayload } from '../../domain/maintenance-window';
import { ToolStatus } from '../../domain/tool-status';

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
