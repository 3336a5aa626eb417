import { CascadeReason, EffectiveHealth, defaultOk, isKnownDown, resolveCascade, withMaintenance } from './cascade';
import { isCooldownActive } from './cooldown-policy';
import { CascadeKeyIds, cascadeKeyIds, cascadeKeys } from './health-key';
import { isPinned } from './health-entry';
import { MaintenanceView, MaintenanceWindow, NO_MAINTENANCE, isInForce, windowsOf } from './maintenance-window';
import { CASCADE_ORDER, Scope, scopeRank } from './scope';
import { cooldownBindsCaller } from './scope-of-evidence';
import { CallContext, CascadeEntry, HealthKey, ToolHealthDocument } from './tool-health-document';

/**
 * One evaluation of a call (D20). Every answer about one (tool, context, now) — failure check,
 * auto-clear, annotation, explain, REST lookup, GraphQL effectiveHealth, the MCP readers, retryAt,
 * wider evidence — reads this, never its own walk of the cascade. Pure: time is an argument.
 *
 * - reach: the cascade's keys narrow → wide up to and including the narrowest entry with a pin in
 *   force (D4b, D18); nothing wider governs, counts or is counted;
 * - status and text: D4 (the narrowest live problem or pin wins) with the windows in force laid
 *   over as DOWN entries at their own scope (withMaintenance, P75);
 * - under maintenance: some window in force lies in reach (P76 as D20 states it), whatever
 *   narrower problem also exists;
 * - back at: the first instant at which nothing in reach blocks the call (blockedUntil).
 */

/** When the call is free again. `blocked` false: nothing blocks now; `at` null while blocked: no known end. */
export interface BackAt {
  blocked: boolean;
  at: Date | null;
}

export const NOT_BLOCKED: BackAt = Object.freeze({ blocked: false, at: null });

export interface CallEvaluationInput<E extends CascadeEntry> {
  toolName: string;
  context: CallContext;
  /** The cascade's stored entries (may hold others; only the cascade's are used). */
  entries: readonly E[] | ReadonlyMap<string, E>;
  now: Date;
  /** The windows of this tool in this context, in force and ahead; none when absent. */
  maintenance?: MaintenanceView | null;
  /**
   * cascadeKeyIds(toolName, context) when the caller has it already: an outcome reads its
   * entries by these ids, and its evaluation then looks them up without encoding them again (P346).
   */
  cascade?: CascadeKeyIds;
}

export interface CallEvaluation<E extends CascadeEntry = ToolHealthDocument> extends EffectiveHealth<E | ToolHealthDocument> {
  context: CallContext;
  now: Date;
  /** The cascade keys in reach, narrow → wide, stored or not. */
  reach: HealthKey[];
  /** The stored entries in reach, narrow → wide. */
  reachEntries: E[];
  /** The entry whose pin bounds the reach; null when no pin is in force in the cascade. */
  boundary: E | null;
  /** Windows in force whose key lies in reach. */
  windowsInReach: MaintenanceWindow[];
  /** Failures are governed by maintenance (no spawn, no writes, no wider evidence) (D20). */
  underMaintenance: boolean;
  /** The stored entry that governs status and text; null for the default OK and for a window. */
  governing: E | null;
  /** "Expected back at": the first instant nothing in reach blocks the call. */
  backAt: BackAt;
}

type Entries<E> = ReadonlyMap<string, E>;

function byIdOf<E extends CascadeEntry>(entries: readonly E[] | ReadonlyMap<string, E>): Entries<E> {
  return entries instanceof Map ? entries : new Map((entries as readonly E[]).map((d) => [d.id, d]));
}

/** The reach at `at`: the cascade's keys up to and including the narrowest pinned stored entry. */
export function reachAt<E extends CascadeEntry>(
  toolName: string,
  context: CallContext,
  byId: Entries<E>,
  at: Date,
  /** The cascade's keys and `_id`s (cascadeKeyIds), when the caller has them already. */
  cascade: { keys: readonly HealthKey[]; ids: readonly string[] } = cascadeKeyIds(toolName, context),
): { keys: HealthKey[]; entries: E[]; boundary: E | null } {
  const keys: HealthKey[] = [];
  const entries: E[] = [];
  for (let i = 0; i < cascade.keys.length; i++) {
    const key = cascade.keys[i];
    keys.push(key);
    const doc = byId.get(cascade.ids[i]);
    if (!doc) continue;
    entries.push(doc);
    if (isPinned(doc, at)) return { keys, entries, boundary: doc };
  }
  return { keys, entries, boundary: null };
}

/** The widest scope rank in reach (GLOBAL's when no pin bounds it). */
function reachRank(keys: readonly HealthKey[]): number {
  return keys.length === 0 ? CASCADE_ORDER.length - 1 : scopeRank(keys[keys.length - 1].scope);
}

function inReachWindows(windows: readonly MaintenanceWindow[], keys: readonly HealthKey[], at: Date): MaintenanceWindow[] {
  // Most tools have no window: no rank to work out, nothing to filter.
  if (windows.length === 0) return [];
  const rank = reachRank(keys);
  return windows.filter((w) => isInForce(w, at) && scopeRank(w.scope) <= rank);
}

/** A guard against a cycle of instants that never ends; each step moves past one end. */
const MAX_STEPS = 64;

/** The end of the stored answer's block when it is known DOWN: the pin's end for a pin, else its estimate. */
function storedBlockEnd(effective: EffectiveHealth<CascadeEntry>, at: Date): number | null {
  const winner = effective.winner!;
  if (isPinned(winner, at)) return winner.pin!.until.getTime();
  return winner.expectedRecoveryAt?.getTime() ?? null;
}

/** What else blocks at an instant (a failure's cooldowns); `null` in the list = no known end. */
export type ExtraBlockers<E> = (at: Date, reachEntries: readonly E[]) => (number | null)[];

/**
 * D20 "back at": follow every block in reach — the stored answer known DOWN (its pin, its
 * estimate), every window in force in reach (windows that follow without a gap chain), and the
 * extra blockers — from end to end, re-evaluating the reach at each instant (a pin's end widens
 * it). Unknown (`at: null`) as soon as a block without a known end is met.
 */
export function blockedUntil<E extends CascadeEntry>(input: CallEvaluationInput<E>, extra: ExtraBlockers<E> = () => []): BackAt {
  const { toolName, context, now } = input;
  const byId = byIdOf(input.entries);
  const windows = windowsOf(input.maintenance ?? NO_MAINTENANCE);
  // The cascade's ids encoded once for every step: each step encoded them twice, and this walk
  // runs for every tool a turn lists as blocked (P364).
  const cascade = input.cascade ?? cascadeKeyIds(toolName, context);
  let at = now;
  for (let step = 0; step < MAX_STEPS; step++) {
    const reach = reachAt(toolName, context, byId, at, cascade);
    const ends: (number | null)[] = inReachWindows(windows, reach.keys, at).map((w) => w.until.getTime());
    const stored = resolveCascade(toolName, context, byId, at, cascade.ids);
    if (isKnownDown(stored)) ends.push(storedBlockEnd(stored, at));
    ends.push(...extra(at, reach.entries).filter((end) => end === null || end > at.getTime()));
    if (ends.length === 0) return at === now ? NOT_BLOCKED : { blocked: true, at };
    if (ends.some((end) => end === null)) return { blocked: true, at: null };
    at = new Date(Math.max(...(ends as number[])));
  }
  return { blocked: true, at };
}

/** The cooldowns of one signature that stop this caller, in reach (D8 with D18/D20). */
export function bindingCooldownEnds(errorSignature: string, userId: string | null): ExtraBlockers<ToolHealthDocument> {
  return (at, reachEntries) => {
    const ends: number[] = [];
    for (const doc of reachEntries) {
      for (const e of doc.cooldowns) {
        if (e.errorSignature === errorSignature && cooldownBindsCaller(e, userId) && isCooldownActive(e, at)) {
          ends.push(e.nextSpawnAllowedAt.getTime());
        }
      }
    }
    return ends;
  };
}

const iso = (d: Date) => d.toISOString();

/**
 * The reach line of a reach no pin bounds: the whole cascade of the context, the same words for
 * every tool (a key's description has no tool name), so a turn builds it once for its context
 * instead of once a tool (P328). Kept beside the keys it describes and used only while every
 * key's scope and scope id still match them, so a context changed after use never reads a stale
 * line.
 */
const reachLines = new WeakMap<CallContext, { keys: readonly HealthKey[]; line: string }>();

function unboundedReachLine(context: CallContext, keys: readonly HealthKey[]): string {
  const cached = reachLines.get(context);
  if (cached && sameScopes(cached.keys, keys)) return cached.line;
  const line = `reach: ${keys.map(describeKey).join(' → ')}`;
  reachLines.set(context, { keys, line });
  return line;
}

function sameScopes(a: readonly HealthKey[], b: readonly HealthKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].scope !== b[i].scope || a[i].scopeId !== b[i].scopeId) return false;
  return true;
}

function describeKey(key: { scope: Scope; scopeId: string | null }): string {
  return key.scopeId === null ? key.scope : `${key.scope} ${key.scopeId}`;
}

/** The one evaluation (D20). */
export function evaluateCall<E extends CascadeEntry>(input: CallEvaluationInput<E>): CallEvaluation<E> {
  const { toolName, context, now } = input;
  const byId = byIdOf(input.entries);
  const view = input.maintenance ?? NO_MAINTENANCE;
  // One encoding of the cascade's ids for both walks below (P326). With no stored entry to look
  // up — most tools of a manifest (P347) — there is nothing to find by id, so none is encoded:
  // the reach is every key of the cascade and the stored answer the default OK, as the walks
  // would find.
  const nothingStored = byId.size === 0;
  const cascade = input.cascade ?? (nothingStored ? null : cascadeKeyIds(toolName, context));
  const reach: { keys: HealthKey[]; entries: E[]; boundary: E | null } = cascade
    ? reachAt(toolName, context, byId, now, cascade)
    : { keys: cascadeKeys(toolName, context), entries: [], boundary: null };
  const windowsInReach = inReachWindows(windowsOf(view), reach.keys, now);
  // With nothing stored, the cascade's answer is its default OK.
  const stored = cascade ? resolveCascade(toolName, context, byId, now, cascade.ids) : defaultOk<E>(toolName);
  const effective = withMaintenance(stored, view, now);
  const governing = effective.reason === CascadeReason.MAINTENANCE ? null : (effective.winner as E | null);
  // blockedUntil's first step at `now` is the one just taken: with no window in reach and no
  // stored block, it answers "not blocked" — so only a blocked call walks on (most calls are not).
  // The walk takes the ids encoded above instead of encoding them again.
  const backAt =
    windowsInReach.length === 0 && !isKnownDown(stored)
      ? NOT_BLOCKED
      : blockedUntil(cascade && !input.cascade ? { ...input, cascade } : input);

  // Field by field, not `...effective`: the cascade answers in several shapes, and spreading them
  // was most of an evaluation's cost (~13 of ~16 µs per tool; P160). tsc names a field left out.
  return {
    toolName: effective.toolName,
    status: effective.status,
    retesting: effective.retesting,
    reason: effective.reason,
    winner: effective.winner,
    considered: effective.considered,
    shadowed: effective.shadowed,
    maintenance: effective.maintenance ?? (view === NO_MAINTENANCE ? undefined : view),
    context,
    now,
    reach: reach.keys,
    reachEntries: reach.entries,
    boundary: reach.boundary,
    windowsInReach,
    underMaintenance: windowsInReach.length > 0,
    governing,
    backAt,
  };
}

/**
 * Why the evaluation reads as it does, in an operator's words, one line per step. Built from the
 * evaluation when a reader shows it (a trace, a failure's answer), not with every evaluation: a
 * success report and a plainly usable tool of a turn never show it (P347).
 */
export function whyOf(evaluation: CallEvaluation<CascadeEntry>): string[] {
  const { toolName, context, reach, boundary, winner, windowsInReach, backAt } = evaluation;
  const why: string[] = [];
  if (boundary) {
    const pin = boundary.pin!;
    const beyond = cascadeKeys(toolName, context).slice(reach.length).map(describeKey);
    why.push(
      `reach: ${reach.map(describeKey).join(' → ')}, bounded by the ${pin.status} pin at ${describeKey(boundary)} until ${iso(pin.until)}` +
        (beyond.length > 0 ? `; ${beyond.join(', ')} beyond it neither govern nor count` : ''),
    );
  } else {
    why.push(unboundedReachLine(context, reach));
  }
  if (winner) {
    why.push(`governs: ${describeKey(winner)} ${evaluation.status}${evaluation.retesting ? ' (retesting)' : ''} — ${evaluation.reason}`);
  } else {
    why.push('governs: nothing — no problem entry in reach, OK');
  }
  for (const w of windowsInReach) {
    why.push(`maintenance in force at ${describeKey(w)} until ${iso(w.until)}: a failure does not spawn and writes nothing`);
  }
  if (backAt.blocked) why.push(backAt.at ? `back at ${iso(backAt.at)}` : 'back at: unknown (a block in reach has no known end)');
  return why;
}

/** Whether a scope lies in the call's reach (wider evidence counts only there, D20). */
export function inReach(evaluation: Pick<CallEvaluation<CascadeEntry>, 'reach'>, scope: Scope): boolean {
  return evaluation.reach.some((k) => k.scope === scope);
}
