import { createHash } from 'node:crypto';
import { DomainError } from './domain-error';

/** The header a caller sends to make a write safe to retry (IETF httpapi Idempotency-Key draft) (D21). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Longest key accepted, in characters once unquoted (a UUID is 36; room for a prefix). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a key and its first answer are kept (the draft's suggested 24 h) (D21). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

const SF_STRING_CHAR = String.raw`(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])`;
const BARE_TOKEN_CHAR = String.raw`[\x21\x23-\x2B\x2D-\x5B\x5D-\x7E]`;
const QUOTED_KEY = new RegExp(`^"(${SF_STRING_CHAR}*)"$`);
const BARE_KEY = new RegExp(`^${BARE_TOKEN_CHAR}+$`);
/** The accepted forms with their length bound, as one pattern (the OpenAPI header schema). */
export const IDEMPOTENCY_KEY_PATTERN = `^(?:"${SF_STRING_CHAR}{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}"|${BARE_TOKEN_CHAR}{1,${MAX_IDEMPOTENCY_KEY_LENGTH}})$`;

/**
 * The header is a String structured field (RFC 8941 sf-string: `"` printable ASCII with `\"`
 * and `\\` escapes `"`) (P122). Leniently, a bare value of visible ASCII without quotes, backslashes,
 * commas or spaces is taken as is (most clients send a bare UUID). Anything else — empty, too
 * long, non-ASCII, two values (a repeated header arrives comma-joined) — is a 400 naming the
 * header. Returns the key itself (unquoted).
 */
export function parseIdempotencyKey(raw: string | string[] | undefined): string {
  if (Array.isArray(raw)) throw invalid('must be sent once');
  const value = (raw ?? '').trim();
  if (value === '') throw invalid('must not be empty');
  let key: string;
  if (value.startsWith('"')) {
    const m = QUOTED_KEY.exec(value);
    if (!m) throw invalid('must be a structured-field string ("…" of printable ASCII) or a bare token of visible ASCII');
    key = m[1].replace(/\\(["\\])/g, '$1');
  } else {
    if (!BARE_KEY.test(value)) throw invalid('must be a structured-field string ("…" of printable ASCII) or a bare token of visible ASCII');
    key = value;
  }
  if (key.length === 0) throw invalid('must not be empty');
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw invalid(`must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  return key;
}

function invalid(message: string): DomainError {
  return DomainError.invalid(IDEMPOTENCY_KEY_HEADER, message);
}

/**
 * JSON with object keys sorted at every level, so two spellings of one body read the same. A value
 * that says how it is written (a Date's `toJSON`) is written so, not as its (empty) own keys.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** What makes two requests "the same": method, route (path and query), caller and canonical body (D21). */
export function requestFingerprint(parts: { method: string; url: string; caller: string; body: unknown }): string {
  return createHash('sha256')
    .update(canonicalJson([parts.method.toUpperCase(), parts.url, parts.caller, parts.body]))
    .digest('base64url');
}

export enum IdempotencyState {
  IN_FLIGHT = 'IN_FLIGHT',
  DONE = 'DONE',
}

/** The parts of a stored key record the decision reads. */
export interface IdempotencyRecordView {
  fingerprint: string;
  state: IdempotencyState;
  /** When an IN_FLIGHT record stops holding the key (its request crashed or never finished). */
  lockedUntil: Date;
  /** When the record stops counting at all (24 h after the first request). */
  expiresAt: Date;
}

export enum ClaimDecision {
  /** Nothing (live) holds the key: this request runs and records its answer. */
  TAKE = 'TAKE',
  /** The same request already answered: send that answer again, run nothing. */
  REPLAY = 'REPLAY',
  /** Another body under this key: 422 naming the header. */
  MISMATCH = 'MISMATCH',
  /** The same key is still being answered: 409. */
  IN_FLIGHT = 'IN_FLIGHT',
  /**
   * Another request (body, method or path) under this key is still being answered. Its answer
   * may write nothing and give the key back, so this waits like IN_FLIGHT; a 422 if the key is
   * still held after the wait.
   */
  OTHER_IN_FLIGHT = 'OTHER_IN_FLIGHT',
}

/**
 * How a request meets the record already stored under its key, at `now` (P122). An expired record
 * (past its 24 h, whether or not the database's TTL monitor removed it yet) or an in-flight one
 * past its lock (the instance died mid-request) no longer holds the key. A record still in flight
 * is not yet a mismatch: a caller who was answered 400 may send the corrected request before the
 * first request's record is given back, since it is given back as that answer is sent (P366).
 */
export function decideClaim(record: IdempotencyRecordView | null, fingerprint: string, now: Date): ClaimDecision {
  if (!record || record.expiresAt.getTime() <= now.getTime()) return ClaimDecision.TAKE;
  const same = record.fingerprint === fingerprint;
  if (record.state === IdempotencyState.IN_FLIGHT) {
    if (record.lockedUntil.getTime() <= now.getTime()) return ClaimDecision.TAKE;
    return same ? ClaimDecision.IN_FLIGHT : ClaimDecision.OTHER_IN_FLIGHT;
  }
  return same ? ClaimDecision.REPLAY : ClaimDecision.MISMATCH;
}
