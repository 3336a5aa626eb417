import { HealthEvent } from '../../domain/health-events';
import { HealthEventModel, PAYLOAD_KIND } from './health-event.model';

/** An outbox event as the GraphQL `HealthEvent` (the payload union is told its member by the event type). */
export function toHealthEventModel(event: HealthEvent & { position: string }): HealthEventModel {
  return {
    id: event.id,
    position: event.position,
    type: event.type,
    docId: event.docId,
    scope: event.scope,
    scopeId: event.scopeId ?? null,
    toolName: event.toolName,
    status: event.status,
    effectiveStatus: event.effectiveStatus,
    effective: event.effective ?? null,
    tenantId: event.tenantId,
    at: event.at,
    payload: { ...event.payload, [PAYLOAD_KIND]: event.type } as unknown as HealthEventModel['payload'],
  };
}
