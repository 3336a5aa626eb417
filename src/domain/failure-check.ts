import { ToolHealthClassification, USER_CLASSES } from './classification';
import { BackAt, CallEvaluation, bindingCooldownEnds, blockedUntil, evaluateCall, inReach, whyOf } from './call-evaluation';
import { isKnownDown } from './cascade';
import { assertFailureClassification, cooldownEntryKey, findCooldown, isCooldownActive } from './cooldown-policy';
import { CascadeKeyIds, contextScopeId, encodeKey } from './health-key';
import { MaintenanceView } from './maintenance-window';
import { cooldownBindsCaller, failureMarkTargets, isUserClass } from './scope-of-evidence';
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
  /** A maintenance window in force lies in the call's reach: nothing is counted (D20, P76). */
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
  /** cascadeKeyIds(toolName, context), when the caller read the entries by them (P346). */
  cascade?: CascadeKeyIds;
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
  /** The wider scopes (TENANT, GLOBAL) this failure may count as evidence at; none under maintenance (D20). */
  evidenceScopes: (Scope.TENANT | Scope.GLOBAL)[];
  /** The evaluation every part of this decision was read off. */
  effective: CallEvaluation;
  /** The evaluation's trace and this decision's steps, for the operator. */
  why: string[];
}

/** The narrowest active entry for (signature, caller) in reach; within one document the caller's own entry first (D8). */
function findHit(
  reachEntries: readonly ToolHealthDocument[],
  errorSignature: string,
  userId: string | null,
  now: Date,
): { doc: ToolHealthDocument; entry: CooldownEntry } | null {
  const owners = userId === null ? [null] : [userId, null];
  for (const doc of reachEntries) {
    for (const owner of owners) {
      // A user-class entry without its user binds nobody (cooldownBindsCaller) (D18).
      const entry = doc.cooldowns.find(
        (e) => e.errorSignature === errorSignature && e.userId === owner && cooldownBindsCaller(e, userId) && isCooldownActive(e, now),
      );
      if (entry) return { doc, entry };
    }
  }
  return null;
}

const SCOPE_WIDE_TARGETS: readonly Scope[] = [Scope.PROJECT, Scope.TENANT, Scope.GLOBAL];

/** The classes whose checker cooldown belongs to the caller's user alone (D20). */
function isOneUsersProblem(classification: ToolHealthClassification): boolean {
  return USER_CLASSES.has(classification) || classification === ToolHealthClassification.USER_SPECIFIC_TECHNICAL;
}

/**
 * D8 third bullet with D18 and D20. A user-class or USER_SPECIFIC_TECHNICAL verdict belongs to
 * the caller's user: without a userId there is nobody to pin it to, and a scope-wide entry would
 * stop every other user (§6, §3.2), so such a caller gets NO cooldown — the answer says why. Other
 * classes go to the narrowest of PROJECT/TENANT/GLOBAL present in the call's reach.
 */
function checkerTarget(
  evaluation: CallEvaluation,
  classification: ToolHealthClassification,
): { target: { key: HealthKey; userId: string | null } | null; refusal: string | null } {
  const { toolName, context } = evaluation;
  const userId = context.userId ?? null;
  if (isOneUsersProblem(classification)) {
    if (userId === null) {
      return { target: null, refusal: `no cooldown: ${classification} is one user's problem and the call names no userId` };
    }
    if (!inReach(evaluation, Scope.USER)) return { target: null, refusal: 'no cooldown: USER lies beyond the pin that bounds the call' };
    return { target: { key: { scope: Scope.USER, scopeId: userId, toolName }, userId }, refusal: null };
  }
  for (const scope of SCOPE_WIDE_TARGETS) {
    const scopeId = contextScopeId(scope, context);
    if (scopeId === undefined) continue;
    if (!inReach(evaluation, scope)) break;
    return { target: { key: { scope, scopeId, toolName }, userId: null }, refusal: null };
  }
  return {
    target: null,
    refusal: `no cooldown: every scope a ${classification} cooldown could go to lies beyond the pin that bounds the call`,
  };
}

/** The retryAt of D20: the first instant nothing in reach blocks a diagnosis (windows, known DOWN, cooldowns). */
export function spawnBlockedUntil(evaluationInput: FailureReport, userId: string | null, extra: Date | null = null): BackAt {
  const cooldowns = bindingCooldownEnds(evaluationInput.errorSignature, userId);
  return blockedUntil(evaluationInput, (at, reach) => {
    const ends: (number | null)[] = cooldowns(at, reach);
    if (extra && extra.getTime() > at.getTime()) ends.push(extra.getTime());
    return ends;
  });
}

function evidenceScopesOf(evaluation: CallEvaluation): (Scope.TENANT | Scope.GLOBAL)[] {
  const scopes: (Scope.TENANT | Scope.GLOBAL)[] = [];
  if (inReach(evaluation, Scope.TENANT)) scopes.push(Scope.TENANT);
  if (inReach(evaluation, Scope.GLOBAL)) scopes.push(Scope.GLOBAL);
  return scopes;
}

/** The failure path of §6/§7 with D8 and D20. Pure: the caller applies the hit, marks and write. */
export function checkFailure(input: FailureReport): FailureDecision {
  const { errorSignature, now } = input;
  const classification = input.classification == null ? null : assertFailureClassification('classification', input.classification);
  const effective = evaluateCall(input);
  const coalescingKey = `${input.toolName}:${errorSignature}`;
  const why = whyOf(effective);
  const base = { coalescingKey, effective, why };

  if (!isToolFault(input.code)) {
    why.push(`failure: ${input.code} is not the tool's fault; nothing counted`);
    return decision(
      base,
      FailureReason.NOT_A_TOOL_FAULT,
      { hit: null, cooldownWrite: null, failureMarks: [], evidenceScopes: [] },
      null,
      now,
    );
  }

  const userId = input.context.userId ?? null;
  const noSpawn = (reason: FailureReason, parts: DecisionParts, retry: BackAt): FailureDecision =>
    decision(base, reason, parts, retry.at, now);

  // A window in force in reach governs failures — no spawn, no cooldown, no hit, no mark, no evidence (D20).
  if (effective.underMaintenance) {
    why.push('failure: under maintenance — not spawned, nothing written, not counted as wider evidence');
    return noSpawn(
      FailureReason.UNDER_MAINTENANCE,
      { hit: null, cooldownWrite: null, failureMarks: [], evidenceScopes: [] },
      spawnBlockedUntil(input, userId),
    );
  }

  const matched = findHit(effective.reachEntries, errorSignature, userId, now);
  const hit = matched && { docId: matched.doc.id, errorSignature, userId: matched.entry.userId };
  const failureClass = classification ?? matched?.entry.lastClassification ?? null;
  // What this failure marks as "last failure" (only the user's own documents for a user-class
  // one; nothing past the pin); D20: a technical failure always marks the entry that governs, so
  // "last failure N min ago" stays true during a cooldown (D18).
  const marks = new Set(failureMarkTargets(effective.reachEntries, { classification: failureClass, inCooldown: matched !== null }));
  if (!isUserClass(failureClass) && effective.governing) marks.add(effective.governing.id);
  const parts: DecisionParts = { hit, cooldownWrite: null, failureMarks: [...marks], evidenceScopes: evidenceScopesOf(effective) };
  if (matched) {
    why.push(
      `cooldown ${errorSignature}${matched.entry.userId ? ` of ${matched.entry.userId}` : ''} at ${matched.doc.scope} active until ${matched.entry.nextSpawnAllowedAt.toISOString()}: the hit is counted there`,
    );
  }

  if (classification) {
    const { target, refusal } = checkerTarget(effective, classification);
    // Issue 13 / P52: the checker's entry already running with the same class — the report is
    // a hit like any other (buffered), not a write.
    const stored = target && input.entries.get(encodeKey(target.key));
    const running = stored && findCooldown(stored, errorSignature, target!.userId);
    const alreadySet =
      running !== undefined && running !== null && isCooldownActive(running, now) && running.lastClassification === classification;
    const write: CheckerCooldownWrite | null =
      target && !alreadySet ? { key: target.key, errorSignature, userId: target.userId, classification } : null;
    why.push(`failure: classified ${classification} by the checker — not spawned`);
    if (refusal) why.push(refusal);
    else if (write)
      why.push(`cooldown ${errorSignature} to be set at ${target!.key.scope}${target!.userId ? ` for ${target!.userId}` : ''}`);
    // The new entry's expiry is only known once applied; the caller folds it in (spawnBlockedUntil).
    parts.cooldownWrite = write;
    return noSpawn(FailureReason.CLASSIFIED_BY_CHECKER, parts, spawnBlockedUntil(input, userId));
  }
  if (matched) return noSpawn(FailureReason.IN_COOLDOWN, parts, spawnBlockedUntil(input, userId));
  if (isKnownDown(effective)) {
    why.push('failure: the tool is known DOWN in reach — not spawned');
    return noSpawn(FailureReason.KNOWN_DOWN, parts, spawnBlockedUntil(input, userId));
  }
  why.push('failure: nothing in reach blocks a diagnosis — eligible');
  return decision(base, FailureReason.ELIGIBLE, parts, null, now);
}

type DecisionParts = Pick<FailureDecision, 'hit' | 'cooldownWrite' | 'failureMarks' | 'evidenceScopes'>;

/**
 * A decision: a diagnosis is spawned only when the failure is eligible, and the original error
 * goes back to the LLM whenever none is. Its fields are listed: `{ ...base, ...parts, spawn, … }`
 * is built through V8's runtime, ~10 µs of every failure report (P362).
 */
function decision(
  base: Pick<FailureDecision, 'coalescingKey' | 'effective' | 'why'>,
  reason: FailureReason,
  parts: DecisionParts,
  retryAt: Date | null,
  now: Date,
): FailureDecision {
  const spawn = reason === FailureReason.ELIGIBLE;
  return {
    spawn,
    reason,
    reflectError: !spawn,
    retryAt,
    retryAfterSeconds: retryAt && Math.max(0, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
    coalescingKey: base.coalescingKey,
    hit: parts.hit,
    cooldownWrite: parts.cooldownWrite,
    failureMarks: parts.failureMarks,
    evidenceScopes: parts.evidenceScopes,
    effective: base.effective,
    why: base.why,
  };
}

/** The narrowest matching entry counts the hit (D8). Same reference when the entry is gone. */
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
