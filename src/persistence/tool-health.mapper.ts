import { ToolHealthDocument } from '../domain/tool-health-document';
import { ToolHealthRecord } from './tool-health.schema';

/** Stored shape ↔ domain shape; the only difference is `_id` vs `id`. */
export function toDomain(record: ToolHealthRecord): ToolHealthDocument {
  const { _id, ...rest } = record;
  return {
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
  return { _id: id, ...rest } as ToolHealthRecord;
}
