import { Diagnosis, HealthKey, HistoryItem, ToolHealthDocument, blankFields } from './tool-health-document';
import { encodeKey } from './health-key';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

/** History ring buffer size when the tenant has no setting (D12). */
export const DEFAULT_HISTORY_LIMIT = 20;

/**
 * A pure write: given the stored document (null when none exists) returns the document to
 * store, or the very `current` it was given when nothing changes — then nothing is written.
 */
export type HealthReducer = (current: ToolHealthDocument | null) => ToolHealthDocument | null;

/** A document that does not exist yet reads as this: status OK, neutral (D7). */
export function newDocument(key: HealthKey, now: Date, tenantId: string | null = null): ToolHealthDocument {
  return {
    ...blankFields(),
    id: encodeKey(key),
    scope: key.scope,
    scopeId: key.scopeId,
    toolName: key.toolName,
    tenantId,
    status: ToolStatus.OK,
    since: now,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The document a write stores: the reducer's, under the key's id, one version after the stored
 * one (a first write stores version 1). Every adapter and the write path's event check build it
 * here, so they cannot drift. A copy whose fields are then set: listing them after a spread costs
 * V8 a runtime call each (P361).
 */
export function atNextVersion(
  reduced: ToolHealthDocument,
  current: ToolHealthDocument | null,
  id: string = reduced.id,
): ToolHealthDocument {
  const next = { ...reduced };
  next.id = id;
  next.version = (current?.version ?? 0) + 1;
  return next;
}

export function isPinned(doc: Pick<ToolHealthDocument, 'pin'>, now: Date): boolean {
  return doc.pin !== null && doc.pin.until.getTime() > now.getTime();
}

/** A problem whose expected recovery has come is RETESTING — computed, never stored (D5). */
export function isRetesting(doc: Pick<ToolHealthDocument, 'status' | 'expectedRecoveryAt'>, now: Date): boolean {
  return doc.status !== ToolStatus.OK && doc.expectedRecoveryAt !== null && doc.expectedRecoveryAt.getTime() <= now.getTime();
}

/** Ring buffer, newest last (D12). */
export function pushHistory(history: HistoryItem[], item: HistoryItem, limit: number): HistoryItem[] {
  const next = [...history, item];
  return next.length > limit ? next.slice(next.length - Math.max(1, limit)) : next;
}

export interface StatusWrite {
  status: ToolStatus;
  diagnosis: Diagnosis;
  expectedRecoveryAt: Date | null;
  code: ToolErrorCode | null;
  historyLimit: number;
  now: Date;
  /** When the new status began, if the writer knows better than `now` (e.g. the disconnect). */
  since?: Date;
  tenantId?: string | null;
  description?: string | null;
}

/**
 * The one way a status is written: `since` moves only when the status changes, every write
 * checks the entry, sets lastDiagnosis and pushes history (D12). A pin is an override layer read
 * by the cascade (D4b): the stored status underneath keeps following the evidence, so the latest
 * verdict applies as soon as the pin ends.
 */
export function applyStatus(current: ToolHealthDocument, write: StatusWrite): ToolHealthDocument {
  const status = write.status;
  const changed = status !== current.status;
  const problem = status !== ToolStatus.OK;
  // A copy, then its fields set: the same document as `{ ...current, status, … }`, which V8 builds
  // three times slower (each property after a spread goes through the runtime; P361).
  const next = { ...current };
  // A stored document's tenant is fixed at creation (version 0 = being created now) (D20).
  next.tenantId = current.version === 0 ? (current.tenantId ?? write.tenantId ?? null) : current.tenantId;
  next.status = status;
  next.since = changed ? (write.since ?? write.now) : current.since;
  next.lastCheckedAt = write.now;
  next.expectedRecoveryAt = problem ? write.expectedRecoveryAt : null;
  next.code = problem ? write.code : null;
  next.description = write.description ?? current.description;
  next.lastDiagnosis = write.diagnosis;
  const { classification, code, note, by, at } = write.diagnosis;
  const item: HistoryItem = { classification, code, note, by, at, status, recoveryAt: problem ? write.expectedRecoveryAt : null };
  next.history = pushHistory(current.history, item, write.historyLimit);
  next.updatedAt = write.now;
  return next;
}
