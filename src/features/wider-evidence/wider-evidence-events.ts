import { encodeKey } from '../../domain/health-key';
import { HealthEvent, HealthEventType, tenantOfKey } from '../../domain/health-events';
import { ToolStatus } from '../../domain/tool-status';
import { WiderEvidence, WiderEvidencePayload } from '../../domain/wider-evidence';
import { INSTANT, ViewField, ViewType } from '../../shapes/view-field';
import { EventRows, INTEGER } from '../../shapes/event-row';

@ViewType(
  'WiderEvidencePayload',
  'The payload of a WIDER_EVIDENCE event: failures of one (tool, signature) seen by enough users and projects to be wider than one of them.',
)
export class WiderEvidencePayloadView implements WiderEvidencePayload {
  @ViewField('The error signature the failures share.') errorSignature: string;
  @ViewField('Distinct users whose calls failed so in the window.', INTEGER) distinctUsers: number;
  @ViewField('Distinct projects among them.', INTEGER) distinctProjects: number;
  @ViewField('The start of the window counted.', INSTANT) since: Date;
  @ViewField("The diagnosis queue's key for the wider scope.") coalescingKey: string;
}

/** The wider-evidence event's row of the event catalogue. */
export const WIDER_EVIDENCE_EVENTS = {
  [HealthEventType.WIDER_EVIDENCE]: {
    description: 'Failures of one tool and error crossed the thresholds for wider evidence.',
    payload: WiderEvidencePayloadView,
    summary: (event, { where, clock }) =>
      `${event.toolName}: ${event.payload.errorSignature} seen by ${event.payload.distinctUsers} users in ${event.payload.distinctProjects} projects since ${clock(event.payload.since)} (${where === 'for everyone' ? 'across tenants' : where.replace(/^for /, 'in ')})`,
  },
} satisfies EventRows;

/**
 * The one place the crossing event is shaped (P79). It points at the health key of the wider
 * scope (TENANT or GLOBAL) of the tool; the id names the window period, so every instance that
 * sees the crossing in that period writes the same id and the outbox keeps one (D13).
 */
export function widerEvidenceEvent(input: {
  toolName: string;
  errorSignature: string;
  evidence: WiderEvidence;
  coalescingKey: string;
  status: ToolStatus;
  period: number;
  at: Date;
}): HealthEvent {
  const key = { scope: input.evidence.scope, scopeId: input.evidence.scopeId, toolName: input.toolName };
  const docId = encodeKey(key);
  return {
    id: `wider:${docId}:${input.errorSignature}:${input.period}`,
    docId,
    ...key,
    status: input.status,
    effectiveStatus: input.status,
    tenantId: tenantOfKey(key),
    at: input.at,
    type: HealthEventType.WIDER_EVIDENCE,
    payload: {
      errorSignature: input.errorSignature,
      distinctUsers: input.evidence.distinctUsers,
      distinctProjects: input.evidence.distinctProjects,
      since: input.evidence.since,
      coalescingKey: input.coalescingKey,
    },
  };
}
