import { cascadeKeys, encodeKey } from './health-key';
import { isPinned, isRetesting } from './health-entry';
import { MaintenanceView, MaintenanceWindow, NO_MAINTENANCE } from './maintenance-window';
import { scopeRank } from './scope';
import { CallContext, CascadeEntry, ToolHealthDocument, blankFields } from './tool-health-document';
import { ToolStatus } from './tool-status';

/** Why an entry is (or is not) the effective one, like a feature flag's evaluation reason. */
export enum CascadeReason {
  /** No problem entry in the cascade: default OK (§4). */
  DEFAULT_OK = 'DEFAULT_OK',
  /** The narrowest DEGRADED/DOWN entry that is not RETESTING (D4). */
  LIVE_PROBLEM = 'LIVE_PROBLEM',
  /** An admin pin (D4b). */
  PINNED = 'PINNED',
  /** Every problem entry is RETESTING; the narrowest of those (D4, D5). */
  RETESTING = 'RETESTING',
  /** A maintenance window in force (issue 16, P75): DOWN until the window's end. */
  MAINTENANCE = 'MAINTENANCE',
}

/** `E`: the stored entries it was resolved from — whole documents, or what a manifest read fetched (P116). */
export interface EffectiveHealth<E extends CascadeEntry = ToolHealthDocument> {
  toolName: string;
  status: ToolStatus;
  retesting: boolean;
  reason: CascadeReason;
  /** The entry that decided the status; null for the default OK. */
  winner: E | null;
  /** Every stored entry of the context's cascade, narrow → wide. */
  considered: E[];
  /** Wider entries with a problem or a pin that the winner hid. */
  shadowed: E[];
  /** Maintenance windows in force or coming (set by withMaintenance). */
  maintenance?: MaintenanceView;
}

/**
 * §4 with D4–D6: the narrowest live problem or active pin wins; an OK entry is neutral; a
 * RETESTING entry yields to a wider live problem; with none, OK.
 * `entries` may hold documents of other tools or contexts: only the cascade's own are used.
 */
export function resolveCascade<E extends CascadeEntry>(
  toolName: string,
  context: CallContext,
  entries: readonly E[] | ReadonlyMap<string, E>,
  now: Date,
  /** The cascade's `_id`s (cascadeKeyIds), when the caller has them already. */
  ids: readonly string[] = cascadeKeys(toolName, context).map(encodeKey),
): EffectiveHealth<E> {
  const byId: ReadonlyMap<string, E> = entries instanceof Map ? entries : new Map((entries as readonly E[]).map((d) => [d.id, d]));
  const considered: E[] = [];
  for (const id of ids) {
    const doc = byId.get(id);
    if (doc) considered.push(doc);
  }
  // Nothing stored in the cascade — most tools of a turn (P347): no search below can find a winner.
  if (considered.length === 0) return defaultOk(toolName, considered);

  const decisive = considered.find((doc) => isPinned(doc, now) || (doc.status !== ToolStatus.OK && !isRetesting(doc, now)));
  if (decisive) {
    const pinned = isPinned(decisive, now);
    return {
      toolName,
      status: pinned ? decisive.pin!.status : decisive.status,
      retesting: false,
      reason: pinned ? CascadeReason.PINNED : CascadeReason.LIVE_PROBLEM,
      winner: decisive,
      considered,
      shadowed: widerProblems(considered, decisive, now),
    };
  }

  const retesting = considered.find((doc) => doc.status !== ToolStatus.OK);
  if (retesting) {
    return {
      toolName,
      status: retesting.status,
      retesting: true,
      reason: CascadeReason.RETESTING,
      winner: retesting,
      considered,
      shadowed: widerProblems(considered, retesting, now),
    };
  }

  return defaultOk(toolName, considered);
}

/** §4's answer when no stored entry of the cascade is a problem or a pin: OK. */
export function defaultOk<E extends CascadeEntry>(toolName: string, considered: E[] = []): EffectiveHealth<E> {
  return { toolName, status: ToolStatus.OK, retesting: false, reason: CascadeReason.DEFAULT_OK, winner: null, considered, shadowed: [] };
}

function widerProblems<E extends CascadeEntry>(considered: E[], winner: E, now: Date): E[] {
  const rank = scopeRank(winner.scope);
  return considered.filter((doc) => scopeRank(doc.scope) > rank && (doc.status !== ToolStatus.OK || isPinned(doc, now)));
}

/** True when the tool should not be called: known DOWN and not RETESTING (§9 recipe hint, D8). */
export function isKnownDown(effective: EffectiveHealth<CascadeEntry>): boolean {
  return effective.status === ToolStatus.DOWN && !effective.retesting;
}

/**
 * The cascade's answer with the windows laid over it. A window in force acts as a DOWN entry at
 * its own scope that beats every stored entry at that scope or wider; a narrower decisive entry
 * (a pin, or a live problem) still wins, as D4/D4b have narrower entries win. The winner is the
 * window rendered as an entry (version 0: never stored), so traces and the failure check read
 * `until` as `expectedRecoveryAt` like any other estimate.
 */
export function withMaintenance<E extends CascadeEntry>(
  effective: EffectiveHealth<E>,
  view: MaintenanceView | null | undefined,
  now: Date,
): EffectiveHealth<E | ToolHealthDocument> {
  if (!view || view === NO_MAINTENANCE) return effective;
  const window = view.inForce;
  const decisive = effective.reason === CascadeReason.PINNED || effective.reason === CascadeReason.LIVE_PROBLEM;
  if (!window || (decisive && effective.winner && scopeRank(effective.winner.scope) < scopeRank(window.scope))) {
    return { ...effective, maintenance: view };
  }
  const rank = scopeRank(window.scope);
  return {
    toolName: effective.toolName,
    status: ToolStatus.DOWN,
    retesting: false,
    reason: CascadeReason.MAINTENANCE,
    winner: windowAsEntry(window, now),
    considered: effective.considered,
    shadowed: effective.considered.filter(
      (doc) =>
        scopeRank(doc.scope) >= rank && (doc.status !== ToolStatus.OK || (doc.pin !== null && doc.pin.until.getTime() > now.getTime())),
    ),
    maintenance: view,
  };
}

export function windowAsEntry(window: MaintenanceWindow, now: Date): ToolHealthDocument {
  const key = { scope: window.scope, scopeId: window.scopeId, toolName: window.toolName };
  return {
    ...blankFields(),
    ...key,
    id: encodeKey(key),
    status: ToolStatus.DOWN,
    since: window.from,
    expectedRecoveryAt: window.until,
    lastDiagnosis: { classification: null, code: null, note: `maintenance: ${window.reason}`, by: window.by, at: window.updatedAt },
    version: 0,
    createdAt: window.createdAt,
    updatedAt: now,
  };
}
