import { DomainError } from './domain-error';
import { HealthReducer, newDocument, pushHistory } from './health-entry';
import { HealthKey, HistoryItem, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

// The words that open the history notes of pins below. Issue 39: the daily uptime reads past pins
// back from them (a pin that ended leaves no other trace), so they are written and read here only.
const PINNED = 'pinned';
const UNPINNED = 'unpinned';
const PIN_ENDED = 'pin ended';
const PINNED_NOTE = /^pinned (OK|DOWN) until (\S+?): /;

/** An admin pins an entry to one of these; DEGRADED is not an override anyone needs (D4b). */
export type PinnableStatus = Pin['status'];
export const PINNABLE_STATUSES: readonly PinnableStatus[] = [ToolStatus.OK, ToolStatus.DOWN];
export const MAX_PIN_REASON_LENGTH = 2000;

export interface PinRequest {
  key: HealthKey;
  status: PinnableStatus;
  until: Date;
  reason: string;
  /** "admin:<key name>". */
  by: string;
  now: Date;
  historyLimit: number;
  /** For a document the pin creates (D7-like: a pin on a key with no document makes a neutral one). */
  tenantId?: string | null;
}

export interface UnpinRequest {
  by: string;
  now: Date;
  historyLimit: number;
}

/** Checked before any read, so a bad pin is a BAD_USER_INPUT and never costs a load. */
export function validatePin(req: Pick<PinRequest, 'status' | 'until' | 'reason' | 'now'>): void {
  if (!PINNABLE_STATUSES.includes(req.status)) {
    throw DomainError.invalid('status', `a pin is OK or DOWN, not ${String(req.status)}`);
  }
  if (!(req.until instanceof Date) || Number.isNaN(req.until.getTime())) {
    throw DomainError.invalid('until', 'must be an instant');
  }
  if (req.until.getTime() <= req.now.getTime()) {
    throw DomainError.invalid('until', `must be in the future (now is ${req.now.toISOString()})`);
  }
  const reason = typeof req.reason === 'string' ? req.reason.trim() : '';
  if (reason.length === 0) throw DomainError.invalid('reason', 'a pin needs a reason');
  if (reason.length > MAX_PIN_REASON_LENGTH) throw DomainError.invalid('reason', `at most ${MAX_PIN_REASON_LENGTH} characters`);
}

/**
 * The history item of a pin or unpin: an act, not a diagnosis (classification null), written by
 * the admin. The stored status is unchanged by a pin (the pin overrides it on read, D4b), so the
 * item repeats it; the note says what was pinned, until when and why.
 */
function adminItem(doc: ToolHealthDocument, note: string, by: string, now: Date): HistoryItem {
  return {
    classification: null,
    code: null,
    note,
    by,
    at: now,
    status: doc.status,
    recoveryAt: doc.status === ToolStatus.OK ? null : doc.expectedRecoveryAt,
  };
}

function samePin(a: Pin, b: Pin): boolean {
  return a.status === b.status && a.until.getTime() === b.until.getTime() && a.reason === b.reason && a.by === b.by;
}

/**
 * Pin the entry's status until an instant (D4b). A key with no document gets a neutral OK one
 * holding the pin (the typical use — a tenant running its own backend under a globally-down tool
 * — pins a TENANT entry that never existed). The stored status, lastDiagnosis and lastCheckedAt
 * stay as they are: verdicts keep being recorded under the pin, and when it ends the stored
 * status reads again. Re-sending the very pin that is in force changes nothing (same reference).
 */
export function pinEntry(req: PinRequest): HealthReducer {
  validatePin(req);
  const pin: Pin = { status: req.status, until: req.until, reason: req.reason.trim(), by: req.by, at: req.now };
  return (current) => {
    if (current?.pin && current.pin.until.getTime() > req.now.getTime() && samePin(current.pin, pin)) return current;
    const doc = current ?? newDocument(req.key, req.now, req.tenantId ?? null);
    const note = `${PINNED} ${pin.status} until ${pin.until.toISOString()}: ${pin.reason}`;
    return {
      ...doc,
      // A stored document's tenant is fixed at creation (D20).
      tenantId: doc.version === 0 ? (doc.tenantId ?? req.tenantId ?? null) : doc.tenantId,
      pin,
      history: pushHistory(doc.history, adminItem(doc, note, req.by, req.now), req.historyLimit),
      updatedAt: req.now,
    };
  };
}

/**
 * Lift the pin (active or already ended). No document, or no pin: nothing to lift — the same
 * reference comes back and nothing is written; the caller turns that into NOT_FOUND.
 */
export function unpinEntry(req: UnpinRequest): HealthReducer {
  return (current) => {
    if (current === null || current.pin === null) return current;
    const old = current.pin;
    const ended = old.until.getTime() <= req.now.getTime();
    const note = `${UNPINNED} (was ${old.status} until ${old.until.toISOString()}${ended ? ', already ended' : ''})`;
    return {
      ...current,
      pin: null,
      history: pushHistory(current.history, adminItem(current, note, req.by, req.now), req.historyLimit),
      updatedAt: req.now,
    };
  };
}

export const PIN_WATCH_ACTOR = 'system:pin-watch';

/**
 * A pin that has run out is removed by the pin watch, so its end is a write — with a history
 * item and a PIN_ENDED event — instead of something readers only infer (P55). Same reference when there
 * is no pin or it still runs.
 */
export function endPin(req: { now: Date; historyLimit: number }): HealthReducer {
  return (current) => {
    if (current === null || current.pin === null || current.pin.until.getTime() > req.now.getTime()) return current;
    const old = current.pin;
    const note = `${PIN_ENDED} (was ${old.status} until ${old.until.toISOString()}: ${old.reason})`;
    return {
      ...current,
      pin: null,
      history: pushHistory(current.history, adminItem(current, note, PIN_WATCH_ACTOR, req.now), req.historyLimit),
      updatedAt: req.now,
    };
  };
}

/** The pin a "pinned … until …" history note records, or null for any other note. */
export function pinFromNote(note: string | null): { status: PinnableStatus; until: Date } | null {
  const match = note === null ? null : PINNED_NOTE.exec(note);
  if (!match) return null;
  const until = new Date(match[2]);
  return Number.isNaN(until.getTime()) ? null : { status: match[1] as PinnableStatus, until };
}

/** Whether a history note records a pin set, lifted or ended: each ends the pin before it. */
export function isPinNote(note: string | null): boolean {
  return note !== null && (pinFromNote(note) !== null || note.startsWith(`${UNPINNED} (`) || note.startsWith(`${PIN_ENDED} (`));
}
