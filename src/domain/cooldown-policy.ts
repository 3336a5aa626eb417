import { ToolHealthClassification } from './classification';
import { DomainError } from './domain-error';
import { CooldownEntry, ToolHealthDocument } from './tool-health-document';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** More entries than this in one document is a 409 once none of them has expired (D7). */
export const MAX_COOLDOWN_ENTRIES = 200;
/** A write this long after expiry still counts as a repetition; the sweep keeps entries this long (D9). */
export const DEFAULT_COOLDOWN_GRACE_MS = 24 * HOUR;

/** The classes that describe a failure; WORKING is a verdict that something works. */
export type FailureClassification = Exclude<ToolHealthClassification, ToolHealthClassification.WORKING>;

export interface CooldownLadder {
  /** First window, and the restart window after the grace period (§6 defaults). */
  defaultMs: number;
  /** Repetition multiplies the stored window by this; 1 = constant. */
  factor: number;
  maxMs: number;
}

/**
 * §6 table with D9. TECHNICALLY_BROKEN's default is only the fallback for when the document
 * has no future expectedRecoveryAt (see windowFor).
 */
export const COOLDOWN_LADDERS: Readonly<Record<FailureClassification, CooldownLadder>> = {
  [ToolHealthClassification.USER_PERMISSION]: { defaultMs: 24 * HOUR, factor: 1, maxMs: 24 * HOUR },
  [ToolHealthClassification.USER_INPUT]: { defaultMs: 5 * MINUTE, factor: 1, maxMs: 5 * MINUTE },
  [ToolHealthClassification.USER_SPECIFIC_TECHNICAL]: { defaultMs: 15 * MINUTE, factor: 2, maxMs: 24 * HOUR },
  [ToolHealthClassification.INTERMITTENT]: { defaultMs: 30 * SECOND, factor: 4, maxMs: 2 * HOUR },
  [ToolHealthClassification.TECHNICALLY_BROKEN]: { defaultMs: 15 * MINUTE, factor: 1, maxMs: 15 * MINUTE },
};

export interface CooldownWrite {
  errorSignature: string;
  userId: string | null;
  classification: ToolHealthClassification;
  /** Explicit duration (tool_health_set_cooldown, checker): wins over every ladder step (D9). */
  durationMs?: number;
  now: Date;
  graceMs: number;
}

/** Map key of an entry inside its document (§6 key minus the document's own key); injective. */
export function cooldownEntryKey(errorSignature: string, userId: string | null): string {
  return JSON.stringify([errorSignature, userId]);
}

export function findCooldown(doc: ToolHealthDocument, errorSignature: string, userId: string | null): CooldownEntry | undefined {
  return doc.cooldowns.find((e) => e.errorSignature === errorSignature && e.userId === userId);
}

export function isCooldownActive(entry: CooldownEntry, now: Date): boolean {
  return entry.nextSpawnAllowedAt.getTime() > now.getTime();
}

export function assertFailureClassification(field: string, classification: ToolHealthClassification): FailureClassification {
  if (!Object.values(ToolHealthClassification).includes(classification)) {
    throw DomainError.invalid(field, `unknown classification ${String(classification)}`);
  }
  if (classification === ToolHealthClassification.WORKING) {
    throw DomainError.invalid(field, 'WORKING is not a failure classification and sets no cooldown');
  }
  return classification;
}

/** The window a fresh (re)start of the ladder gets. */
export function defaultWindowMs(classification: FailureClassification, doc: ToolHealthDocument, now: Date): number {
  if (classification === ToolHealthClassification.TECHNICALLY_BROKEN) {
    const until = doc.expectedRecoveryAt?.getTime() ?? 0;
    if (until > now.getTime()) return until - now.getTime();
  }
  return COOLDOWN_LADDERS[classification].defaultMs;
}

/**
 * One repetition step. The STORED window is the base (§6: stored values are authoritative),
 * so an admin's edit moves the ladder. The cap never shrinks a window an admin set above it:
 * a repetition does not make the cooldown shorter.
 */
function nextWindowMs(classification: FailureClassification, stored: CooldownEntry, doc: ToolHealthDocument, now: Date): number {
  // A different class is a different diagnosis: its own ladder starts (e.g. USER_INPUT's
  // 5 min must not become the base of a USER_PERMISSION cooldown).
  if (classification !== stored.lastClassification) return defaultWindowMs(classification, doc, now);
  // Coupled to the document's recovery estimate (§6) while there is one in the future; without
  // one a repetition climbs from its stored window like every ladder (D20, D9: stored values win).
  if (classification === ToolHealthClassification.TECHNICALLY_BROKEN) {
    const until = doc.expectedRecoveryAt?.getTime() ?? 0;
    if (until > now.getTime()) return until - now.getTime();
  }
  const ladder = COOLDOWN_LADDERS[classification];
  return Math.min(stored.windowMs * ladder.factor, Math.max(ladder.maxMs, stored.windowMs));
}

/**
 * Sets or escalates one cooldown (§6, D7, D9). Never mutates `doc`.
 *
 * Hits are not counted here: `hits` counts failure reports that met an ACTIVE cooldown
 * (D8, recordHit); the write that creates the entry is the diagnosis, not a hit. So a new
 * entry starts at hits 0 and lastTriggeredAt null, and existing counters are kept.
 */
export function applyCooldown(doc: ToolHealthDocument, w: CooldownWrite): ToolHealthDocument {
  const classification = assertFailureClassification('classification', w.classification);
  if (w.durationMs !== undefined && !(Number.isFinite(w.durationMs) && w.durationMs >= 0)) {
    throw DomainError.invalid('durationMs', 'must be a non-negative number of milliseconds');
  }
  const now = w.now.getTime();
  const existing = findCooldown(doc, w.errorSignature, w.userId);

  if (!existing) {
    const windowMs = w.durationMs ?? defaultWindowMs(classification, doc, w.now);
    const entry: CooldownEntry = {
      errorSignature: w.errorSignature,
      userId: w.userId,
      nextSpawnAllowedAt: new Date(now + windowMs),
      hits: 0,
      lastClassification: classification,
      lastTriggeredAt: null,
      windowMs,
    };
    return { ...doc, cooldowns: [...makeRoom(doc.cooldowns, w.now), entry], updatedAt: w.now };
  }

  let windowMs: number | null;
  if (w.durationMs !== undefined) {
    // An explicit duration is a deliberate decision (admin, Agrajag): it wins even while active.
    windowMs = w.durationMs;
  } else if (isCooldownActive(existing, w.now)) {
    // A write while active refreshes the classification only; expiry and window stay (D9).
    windowMs = null;
  } else if (now - existing.nextSpawnAllowedAt.getTime() <= w.graceMs) {
    windowMs = nextWindowMs(classification, existing, doc, w.now);
  } else {
    windowMs = defaultWindowMs(classification, doc, w.now);
  }

  const updated: CooldownEntry =
    windowMs === null
      ? { ...existing, lastClassification: classification }
      : { ...existing, lastClassification: classification, windowMs, nextSpawnAllowedAt: new Date(now + windowMs) };
  return {
    ...doc,
    cooldowns: doc.cooldowns.map((e) => (e === existing ? updated : e)),
    updatedAt: w.now,
  };
}

/**
 * Whether `applyCooldown` can write this entry without the 409 of the cap — it exists already,
 * or there is room (after dropping expired ones) (D7). The hot failure path asks first and, when the
 * document is full, answers without a cooldown instead of failing after its hits were counted.
 */
export function hasRoomForCooldown(doc: ToolHealthDocument, errorSignature: string, userId: string | null, now: Date): boolean {
  if (findCooldown(doc, errorSignature, userId)) return true;
  const excess = doc.cooldowns.length + 1 - MAX_COOLDOWN_ENTRIES;
  return excess <= 0 || doc.cooldowns.filter((e) => !isCooldownActive(e, now)).length >= excess;
}

/** Room for one more entry, dropping the oldest expired ones; 409 when none has expired (D7). */
function makeRoom(cooldowns: CooldownEntry[], now: Date): CooldownEntry[] {
  const excess = cooldowns.length + 1 - MAX_COOLDOWN_ENTRIES;
  if (excess <= 0) return cooldowns;
  const expired = cooldowns
    .filter((e) => !isCooldownActive(e, now))
    .sort((a, b) => a.nextSpawnAllowedAt.getTime() - b.nextSpawnAllowedAt.getTime());
  if (expired.length < excess) {
    throw DomainError.conflict(`a document holds at most ${MAX_COOLDOWN_ENTRIES} cooldown entries and too few of them have expired`);
  }
  const dropped = new Set(expired.slice(0, excess));
  return cooldowns.filter((e) => !dropped.has(e));
}

/**
 * Ends matching active cooldowns now. Entries are kept, not removed, so a failure soon after
 * is still a repetition on the ladder (D10). Same reference when nothing matched.
 */
export function expireCooldowns(doc: ToolHealthDocument, match: (e: CooldownEntry) => boolean, now: Date): ToolHealthDocument {
  let changed = false;
  const cooldowns = doc.cooldowns.map((e) => {
    if (!isCooldownActive(e, now) || !match(e)) return e;
    changed = true;
    return { ...e, nextSpawnAllowedAt: now };
  });
  return changed ? { ...doc, cooldowns, updatedAt: now } : doc;
}

/** Admin repair: drop one entry, ladder and all. Same reference when there is no such entry. */
export function removeCooldown(doc: ToolHealthDocument, errorSignature: string, userId: string | null, now: Date): ToolHealthDocument {
  const cooldowns = doc.cooldowns.filter((e) => !(e.errorSignature === errorSignature && e.userId === userId));
  return cooldowns.length === doc.cooldowns.length ? doc : { ...doc, cooldowns, updatedAt: now };
}
