import { cascadeKeys, encodeKey } from './health-key';
import { isPinned, isRetesting } from './health-entry';
import type { MaintenanceView } from './maintenance-window';
import { scopeRank } from './scope';
import { CallContext, ToolHealthDocument } from './tool-health-document';
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

export interface EffectiveHealth {
  toolName: string;
  status: ToolStatus;
  retesting: boolean;
  reason: CascadeReason;
  /** The entry that decided the status; null for the default OK. */
  winner: ToolHealthDocument | null;
  /** Every stored entry of the context's cascade, narrow → wide. */
  considered: ToolHealthDocument[];
  /** Wider entries with a problem or a pin that the winner hid. */
  shadowed: ToolHealthDocument[];
  /** Maintenance windows in force or coming (set by withMaintenance, maintenance-window.ts). */
  maintenance?: MaintenanceView;
}

/**
 * §4 with D4–D6: the narrowest live problem or active pin wins; an OK entry is neutral; a
 * RETESTING entry yields to a wider live problem; with none, OK.
 * `entries` may hold documents of other tools or contexts: only the cascade's own are used.
 */
export function resolveCascade(
  toolName: string,
  context: CallContext,
  entries: Iterable<ToolHealthDocument> | ReadonlyMap<string, ToolHealthDocument>,
  now: Date,
): EffectiveHealth {
  const byId = entries instanceof Map ? entries : new Map([...(entries as Iterable<ToolHealthDocument>)].map((d) => [d.id, d]));
  const considered: ToolHealthDocument[] = [];
  for (const key of cascadeKeys(toolName, context)) {
    const doc = byId.get(encodeKey(key));
    if (doc) considered.push(doc);
  }

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

  return { toolName, status: ToolStatus.OK, retesting: false, reason: CascadeReason.DEFAULT_OK, winner: null, considered, shadowed: [] };
}

function widerProblems(considered: ToolHealthDocument[], winner: ToolHealthDocument, now: Date): ToolHealthDocument[] {
  const rank = scopeRank(winner.scope);
  return considered.filter((doc) => scopeRank(doc.scope) > rank && (doc.status !== ToolStatus.OK || isPinned(doc, now)));
}

/** True when the tool should not be called: known DOWN and not RETESTING (§9 recipe hint, D8). */
export function isKnownDown(effective: EffectiveHealth): boolean {
  return effective.status === ToolStatus.DOWN && !effective.retesting;
}
