import { ToolHealthClassification, USER_CLASSES } from './classification';
import { CascadeReason, EffectiveHealth, isKnownDown, resolveCascade, withMaintenance } from './cascade';
import { assertFailureClassification, cooldownEntryKey, findCooldown, isCooldownActive } from './cooldown-policy';
import { contextScopeId, encodeKey } from './health-key';
import { MaintenanceView } from './maintenance-window';
import { cooldownBindsCaller, failureMarkTargets, spawnBlockedUntil } from './scope-of-evidence';
import { Scope } from './scope';
import { CallContext, CooldownEntry, HealthKey, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode, isToolFault } from './tool-error-code';

/** Why a failure does or does not spawn a diagnosis (D8), like a feature flag's evaluation reason. */
export enum FailureReason {
  /** NOT_REGISTERED / DISALLOWED: nothing about the tool's health (§3.1). */
  NOT_A_TOOL_FAULT = 'NOT_A_TOOL_FAULT',
  /** A matching active cooldown: reflect the error, no new diagnosis (§6). */
  IN_COOLDOWN = 'IN_COOLDOWN',
  /** Effective status DOWN and not RETESTING: the tool is known down (D8). */
  KNOWN_DOWN = 'KNOWN_DOWN',
  /** The synchronous checker already classified the error (§7 second row). */
  CLASSIFIED_BY_CHECKER = 'CLASSIFIED_BY_CHECKER',
  /** Eligible for a diagnosis; the queue coalesces on coalescingKey. */
  ELIGIBLE = 'ELIGIBLE',
  /** A maintenance window is in force: the failure is expected, nothing is counted (issue 16, P76). */
  UNDER_MAINTENANCE = 'UNDER_MAINTENANCE',
}

export interface CooldownHit {
  docId: string;
  errorSignature: string;
  userId: string | null;
}

/** The checker's cooldown, for the caller to run through applyCooldown on that key. */
export interface CheckerCooldownWrite {
  key: HealthKey;
  errorSignature: string;
  userId: string | null;
  classification: ToolHealthClassification;
}

export interface FailureReport {
  toolName: string;
  context: CallContext;
  code: ToolErrorCode;
  errorSignature: string;
  /** Supplied by the synchronous checker when the error is clearly classifiable. */
  classification?: ToolHealthClassification | null;
  /** The cascade's stored documents by id (may hold others; only the cascade's are used). */
  entries: ReadonlyMap<string, ToolHealthDocument>;
  now: Date;
  /** The maintenance windows of this call (issue 16); none when absent. */
  maintenance?: MaintenanceView | null;
}

export interface FailureDecision {
  spawn: boolean;
  reason: FailureReason;
  /** True whenever there is no spawn: the original error goes back to the LLM. */
  reflectError: boolean;
  retryAt: Date | null;
  retryAfterSeconds: number | null;
  coalescingKey: string;
  hit: CooldownHit | null;
  cooldownWrite: CheckerCooldownWrite | null;
  /** Ids of stored cascade documents whose lastFailureAt becomes `now` (recordFailure). */
  failureMarks: string[];
  effective: EffectiveHealth;
}

/** D8: the narrowest active entry for (signature, caller); within one document the caller's own entry first. */
function findHit(
  considered: ToolHealthDocument[],
  errorSignature: string,
  userId: string | null,
  now: Date,
): { doc: ToolHealthDocument; entry: CooldownEntry } | null {
  const owners = userId === null ? [null] : [userId, null];
  for (const doc of considered) {
    for (const owner of owners) {
      // D18: a user-class entry without its user binds nobody (cooldownBindsCaller).
      const entry = doc.cooldowns.find(
        (e) => e.errorSignature === errorSignature && e.userId === owner && cooldownBindsCaller(e, userId) && isCooldownActive(e, now),
      );
      if (entry) return { doc, entry };
    }
  }
  return null;
}

const SCOPE_WIDE_TARGETS: readonly Scope[] = [Scope.PROJECT, Scope.TENANT, Scope.GLOBAL];

/**
 * D8 third bullet with D18. A user-class verdict belongs to the caller's user: without a userId
 * there is nobody to pin it to, and a scope-wide entry would stop every other user (§6), so such a
 * caller gets NO cooldown (null) — the answer is still "do not spawn", the checker classified it.
 */
function checkerTarget(
  toolName: string,
  context: CallContext,
  classification: ToolHealthClassification,
): { key: HealthKey; userId: string | null } | null {
  const userId = context.userId ?? null;
  if (USER_CLASSES.has(classification)) {
    return userId === null ? null : { key: { scope: Scope.USER, scopeId: userId, toolName }, userId };
  }
  for (const scope of SCOPE_WIDE_TARGETS) {
    const scopeId = contextScopeId(scope, context);
    if (scopeId !== undefined) return { key: { scope, scopeId, toolName }, userId: null };
  }
  /* istanbul ignore next -- GLOBAL is always present */
  throw new Error('unreachable: GLOBAL is part of every cascade');
}

/** The failure path of §6/§7 with D8. Pure: the caller applies the hit, marks and write. */
export function checkFailure(input: FailureReport): FailureDecision {
  const { toolName, context, errorSignature, now } = input;
  const classification = input.classification == null ? null : assertFailureClassification('classification', input.classification);
  const effective = withMaintenance(resolveCascade(toolName, context, input.entries, now), input.maintenance, now);
  const coalescingKey = `${toolName}:${errorSignature}`;
  const base = { coalescingKey, effective };

  if (!isToolFault(input.code)) {
    return {
      ...base,
      spawn: false,
      reason: FailureReason.NOT_A_TOOL_FAULT,
      reflectError: true,
      retryAt: null,
      retryAfterSeconds: null,
      hit: null,
      cooldownWrite: null,
      failureMarks: [],
    };
  }

  const userId = context.userId ?? null;
  const matched = findHit(effective.considered, errorSignature, userId, now);
  const hit = matched && { docId: matched.doc.id, errorSignature, userId: matched.entry.userId };
  // D18: what this failure may mark as "last failure" (none when it met a cooldown; only the
  // user's own documents for a user-class one; never past a pin that shadows the wider ones).
  const failureMarks = failureMarkTargets(effective.considered, now, {
    classification: classification ?? matched?.entry.lastClassification ?? null,
    inCooldown: matched !== null,
  });
  const knownDown = isKnownDown(effective);
  const blockInput = { toolName, context, errorSignature, entries: input.entries, now };
  // "Until when" no diagnosis (P51): the first instant at which the next check would answer
  // ELIGIBLE — every binding cooldown and the outage (its pin, its estimate) followed through.
  const noSpawn = (reason: FailureReason, cooldownWrite: CheckerCooldownWrite | null, retryAt: Date | null): FailureDecision => ({
    ...base,
    spawn: false,
    reason,
    reflectError: true,
    hit,
    cooldownWrite,
    failureMarks,
    retryAt,
    retryAfterSeconds: retryAt && Math.max(0, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
  });

  // P76: during a window the failure is the announced outage: no spawn, no cooldown, no marks.
  if (effective.reason === CascadeReason.MAINTENANCE) {
    return { ...noSpawn(FailureReason.UNDER_MAINTENANCE, null, effective.winner!.expectedRecoveryAt), hit: null, failureMarks: [] };
  }

  if (classification) {
    const target = checkerTarget(toolName, context, classification);
    // Issue 13 / P52: the checker's entry already running with the same class — the report is
    // a hit like any other (buffered), not a write.
    const stored = target && input.entries.get(encodeKey(target.key));
    const running = stored && findCooldown(stored, errorSignature, target!.userId);
    const alreadySet =
      running !== undefined && running !== null && isCooldownActive(running, now) && running.lastClassification === classification;
    const write = target && !alreadySet ? { ...target, errorSignature, classification } : null;
    // The new entry's expiry is only known once applied; the caller folds it in (spawnBlockedUntil).
    return noSpawn(FailureReason.CLASSIFIED_BY_CHECKER, write, spawnBlockedUntil(blockInput));
  }
  if (matched) return noSpawn(FailureReason.IN_COOLDOWN, null, spawnBlockedUntil(blockInput));
  if (knownDown) return noSpawn(FailureReason.KNOWN_DOWN, null, spawnBlockedUntil(blockInput));
  return {
    ...base,
    spawn: true,
    reason: FailureReason.ELIGIBLE,
    reflectError: false,
    retryAt: null,
    retryAfterSeconds: null,
    hit: null,
    cooldownWrite: null,
    failureMarks,
  };
}

/** D8: the narrowest matching entry counts the hit. Same reference when the entry is gone. */
export function recordHit(doc: ToolHealthDocument, hit: { errorSignature: string; userId: string | null }, now: Date): ToolHealthDocument {
  const hits = new Map([[cooldownEntryKey(hit.errorSignature, hit.userId), { count: 1, lastTriggeredAt: now }]]);
  return applyBufferedBookkeeping(doc, { hits, lastFailureAt: null });
}

export function recordFailure(doc: ToolHealthDocument, now: Date): ToolHealthDocument {
  return applyBufferedBookkeeping(doc, { hits: new Map(), lastFailureAt: now });
}

/** Bookkeeping collected per document between flushes (D10b); keys from cooldownEntryKey. */
export interface BufferedBookkeeping {
  hits: ReadonlyMap<string, { count: number; lastTriggeredAt: Date }>;
  lastFailureAt: Date | null;
}

/**
 * D10b flush. Entries that disappeared meanwhile (sweep, cap, admin) are ignored: their hits
 * describe a cooldown that no longer exists. Timestamps only move forward, so a late flush
 * never rewinds a newer value. Same reference when nothing applies.
 */
export function applyBufferedBookkeeping(doc: ToolHealthDocument, b: BufferedBookkeeping): ToolHealthDocument {
  let changed = false;
  const cooldowns = doc.cooldowns.map((e) => {
    const buffered = b.hits.get(cooldownEntryKey(e.errorSignature, e.userId));
    if (!buffered || buffered.count <= 0) return e;
    changed = true;
    return { ...e, hits: e.hits + buffered.count, lastTriggeredAt: later(e.lastTriggeredAt, buffered.lastTriggeredAt) };
  });
  const lastFailureAt = b.lastFailureAt ? later(doc.lastFailureAt, b.lastFailureAt) : doc.lastFailureAt;
  if (lastFailureAt !== doc.lastFailureAt) changed = true;
  if (!changed) return doc;
  // updatedAt is left alone: bookkeeping is not a change of health (no event, D13).
  return { ...doc, cooldowns, lastFailureAt };
}

function later(a: Date | null, b: Date): Date {
  return a !== null && a.getTime() >= b.getTime() ? a : b;
}
