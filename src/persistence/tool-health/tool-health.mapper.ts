import { STORED_EVENTS, storedEventsOf } from '../../domain/stored-events';
import { CascadeEntry, ToolHealthDocument, blankFields } from '../../domain/tool-health-document';
import { RecordUpdate, recordUpdate } from './record-update';
import { ToolHealthRecord } from './tool-health.schema';

/** The fields of a record that make a CascadeEntry: the manifest read's projection (P116). */
export const CASCADE_ENTRY_FIELDS = [
  'scope',
  'scopeId',
  'toolName',
  'status',
  'since',
  'expectedRecoveryAt',
  'code',
  'lastFailureAt',
  'lastDiagnosis',
  'pin',
  'description',
] as const satisfies readonly Exclude<keyof CascadeEntry, 'id'>[];

export type CascadeEntryRecord = Pick<ToolHealthRecord, '_id' | (typeof CASCADE_ENTRY_FIELDS)[number]>;

/**
 * The flush ids a document remembers travel with its domain object under a symbol key, so
 * a replace writes them back (a retried flush must still find its id) while no view or JSON
 * answer shows them (JSON ignores symbol keys; object spreads in reducers copy them) (P42).
 */
export const APPLIED_FLUSH_IDS_KEY = Symbol('appliedFlushIds');

type WithFlushIds = { [APPLIED_FLUSH_IDS_KEY]?: string[] };

/**
 * A record's fields that a document may lack (it was stored before they existed) or hold as null:
 * each reads as its blank value (blankFields, the one list of them), as a new document starts.
 */
function blanksFilled(record: Partial<Record<keyof ReturnType<typeof blankFields>, unknown>>): ReturnType<typeof blankFields> {
  const filled: Record<string, unknown> = blankFields();
  for (const field of Object.keys(filled)) {
    const value = record[field as keyof typeof record];
    if (value !== null && value !== undefined) filled[field] = value;
  }
  return filled as ReturnType<typeof blankFields>;
}

/** Stored shape ↔ domain shape; the only difference is `_id` vs `id`. */
export function toDomain(record: ToolHealthRecord): ToolHealthDocument {
  const { _id, life, pendingEvents, appliedFlushIds, ...rest } = record as ToolHealthRecord & { appliedFlushIds?: string[] };
  const doc = {
    // The write path's own fields, kept off the domain view (see stored-events.ts) (P53/P54).
    [STORED_EVENTS]: { life: life ?? '0', pendingEvents: pendingEvents ?? [] },
    ...rest,
    ...blanksFilled(rest),
    id: _id,
  } as ToolHealthDocument & WithFlushIds;
  if (appliedFlushIds) doc[APPLIED_FLUSH_IDS_KEY] = appliedFlushIds;
  return doc;
}

/** A projected record (CASCADE_ENTRY_FIELDS) as the cascade reads it; absent optional fields read as null, as in toDomain. */
export function toCascadeEntry(record: CascadeEntryRecord): CascadeEntry {
  return {
    id: record._id,
    scope: record.scope,
    scopeId: record.scopeId ?? null,
    toolName: record.toolName,
    status: record.status,
    since: record.since,
    expectedRecoveryAt: record.expectedRecoveryAt ?? null,
    code: record.code ?? null,
    lastFailureAt: record.lastFailureAt ?? null,
    lastDiagnosis: record.lastDiagnosis ?? null,
    pin: record.pin ?? null,
    description: record.description ?? null,
  };
}

export function toRecord(doc: ToolHealthDocument): ToolHealthRecord {
  const { id, [APPLIED_FLUSH_IDS_KEY]: appliedFlushIds, ...rest } = doc as ToolHealthDocument & WithFlushIds;
  const stored = storedEventsOf(doc);
  const record = { _id: id, ...rest, ...(stored ? { life: stored.life, pendingEvents: stored.pendingEvents } : {}) } as ToolHealthRecord & {
    appliedFlushIds?: string[];
  };
  if (appliedFlushIds) record.appliedFlushIds = appliedFlushIds;
  return record;
}

/**
 * The update that turns the stored record of `before` into that of `after`: exactly
 * `recordUpdate(toRecord(before), toRecord(after))`, read from the documents themselves (P357).
 * Copying both documents into records only to compare them took about half of a guarded update's
 * preparation: ~2 µs of service CPU per tool of a bulk write.
 */
export function documentUpdate(before: ToolHealthDocument, after: ToolHealthDocument): RecordUpdate {
  // The document's own fields; the id is the record's `_id`, which never changes.
  const update = recordUpdate(before, after, {}, 'id');
  // The write path's own, which the document carries under symbols (toRecord stores them as fields).
  return recordUpdate(writePathFields(before), writePathFields(after), update);
}

function writePathFields(doc: ToolHealthDocument): Record<string, unknown> {
  const stored = storedEventsOf(doc);
  const appliedFlushIds = (doc as ToolHealthDocument & WithFlushIds)[APPLIED_FLUSH_IDS_KEY];
  const fields: Record<string, unknown> = stored ? { life: stored.life, pendingEvents: stored.pendingEvents } : {};
  if (appliedFlushIds) fields.appliedFlushIds = appliedFlushIds;
  return fields;
}

/**
 * The stored shape declares every field of the document, and no other (but the write path's
 * own): a field added to ToolHealthDocument without its @Prop in tool-health.schema.ts, or the
 * reverse, fails `tsc` here (docs/adding-a-field.md). The repository writes through the driver,
 * which would store an undeclared field silently; this keeps the schema the true stored shape.
 */
type StoredFields = Exclude<keyof ToolHealthRecord, '_id' | 'life' | 'pendingEvents'>;
type DocumentFields = Exclude<keyof ToolHealthDocument, 'id'>;
type SameKeys<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : { missingFromDocument: Exclude<A, B> }
  : { missingFromSchema: Exclude<B, A> };
export const STORED_SHAPE_MATCHES_DOCUMENT: SameKeys<StoredFields, DocumentFields> = true;
