import { STORED_EVENTS, storedEventsOf } from '../domain/stored-events';
import { ToolHealthDocument } from '../domain/tool-health-document';
import { ToolHealthRecord } from './tool-health.schema';

/** Stored shape ↔ domain shape; the only difference is `_id` vs `id`. */
export function toDomain(record: ToolHealthRecord): ToolHealthDocument {
  const { _id, life, pendingEvents, ...rest } = record;
  return {
    // P53/P54: the write path's own fields, kept off the domain view (see stored-events.ts).
    [STORED_EVENTS]: { life: life ?? '0', pendingEvents: pendingEvents ?? [] },
    ...rest,
    id: _id,
    tenantId: rest.tenantId ?? null,
    lastFailureAt: rest.lastFailureAt ?? null,
    code: rest.code ?? null,
    pin: rest.pin ?? null,
    description: rest.description ?? null,
    history: rest.history ?? [],
    cooldowns: rest.cooldowns ?? [],
  } as ToolHealthDocument;
}

export function toRecord(doc: ToolHealthDocument): ToolHealthRecord {
  const { id, ...rest } = doc;
  const stored = storedEventsOf(doc);
  return { _id: id, ...rest, ...(stored ? { life: stored.life, pendingEvents: stored.pendingEvents } : {}) } as ToolHealthRecord;
}
