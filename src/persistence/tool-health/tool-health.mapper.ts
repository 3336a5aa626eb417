import { STORED_EVENTS, storedEventsOf } from '../../domain/stored-events';
import { CascadeEntry, ToolHealthDocument, blankFields } from '../../domain/tool-health-document';
import { RecordUpdate, fieldUpdate, recordUpdate } from './record-update';
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
 * The fields toDomain reads by name; any other field of a record is carried over as it is. `id`
 * is here so that a stray `id` field in a record can never stand in for its `_id`.
 */
const READ_FIELDS = new Set<string>([
  '_id',
  'id',
  'scope',
  'scopeId',
  'toolName',
  'status',
  'since',
  'version',
  'createdAt',
  'updatedAt',
  ...Object.keys(blankFields()),
  'life',
  'pendingEvents',
  'appliedFlushIds',
]);

/**
 * Stored shape → domain shape: `_id` is `id`, and a field the record lacks or holds as null (it
 * was stored before the field existed) reads as its blank value (blankFields, the one list of
 * them), as a new document starts. A field this build does not know (one a newer build wrote) is
 * kept, so the next write does not drop it.
 *
 * The fields are listed rather than spread: `{ ...rest, ...blanks, id }` is built through V8's
 * runtime, ~1 µs of every document read (P361, P362).
 */
export function toDomain(record: ToolHealthRecord): ToolHealthDocument {
  const r = record as ToolHealthRecord & { appliedFlushIds?: string[] };
  const blank = blankFields();
  const doc: ToolHealthDocument = {
    id: r._id,
    scope: r.scope,
    scopeId: r.scopeId ?? null,
    toolName: r.toolName,
    tenantId: r.tenantId ?? blank.tenantId,
    status: r.status,
    since: r.since,
    lastCheckedAt: r.lastCheckedAt ?? blank.lastCheckedAt,
    expectedRecoveryAt: r.expectedRecoveryAt ?? blank.expectedRecoveryAt,
    code: r.code ?? blank.code,
    lastFailureAt: r.lastFailureAt ?? blank.lastFailureAt,
    lastDiagnosis: r.lastDiagnosis ?? blank.lastDiagnosis,
    history: r.history ?? blank.history,
    cooldowns: r.cooldowns ?? blank.cooldowns,
    pin: r.pin ?? blank.pin,
    description: r.description ?? blank.description,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
  for (const field in r) if (!READ_FIELDS.has(field)) (doc as unknown as Record<string, unknown>)[field] = r[field as keyof typeof r];
  // The write path's own fields, kept off the domain view (see stored-events.ts) (P53/P54).
  (doc as ToolHealthDocument & { [STORED_EVENTS]: unknown })[STORED_EVENTS] = { life: r.life ?? '0', pendingEvents: r.pendingEvents ?? [] };
  if (r.appliedFlushIds) (doc as ToolHealthDocument & WithFlushIds)[APPLIED_FLUSH_IDS_KEY] = r.appliedFlushIds;
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
  // The write path's own, which the document carries under symbols (toRecord stores them as
  // fields), compared where they are instead of copied into two small records first. With
  // recordUpdate walking cached key lists, that took this function from ~4.6 to ~3.0 µs per
  // document of a bulk write, measured in the service (P373).
  const was = storedEventsOf(before);
  const now = storedEventsOf(after);
  fieldUpdate(update, 'life', was !== undefined, was?.life, now !== undefined, now?.life);
  fieldUpdate(update, 'pendingEvents', was !== undefined, was?.pendingEvents, now !== undefined, now?.pendingEvents);
  const flushedBefore = flushIdsOf(before);
  const flushedAfter = flushIdsOf(after);
  fieldUpdate(update, 'appliedFlushIds', Boolean(flushedBefore), flushedBefore, Boolean(flushedAfter), flushedAfter);
  return update;
}

function flushIdsOf(doc: ToolHealthDocument): string[] | undefined {
  return (doc as ToolHealthDocument & WithFlushIds)[APPLIED_FLUSH_IDS_KEY];
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
