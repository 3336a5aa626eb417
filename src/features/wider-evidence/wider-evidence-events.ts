import { encodeKey } from '../../domain/health-key';
import { HealthEvent, HealthEventType, tenantOfKey } from '../../domain/health-events';
import { ToolStatus } from '../../domain/tool-status';
import { WiderEvidence } from '../../domain/wider-evidence';

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
