import { CascadeReason, EffectiveHealth } from './cascade';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';
import { CascadeEntry } from './tool-health-document';

/** The entry that decided the effective status, reduced to what a reader needs to trust it. */
export interface CascadeMatch {
  scope: Scope;
  scopeId: string | null;
  /** Who decided: the pin's author for a pin, else lastDiagnosis.by; null when unknown. */
  by: string | null;
  /** Since when the effective status holds (see effectiveSince). */
  since: Date;
  /** The pin's end for a pin, else the entry's expectedRecoveryAt; null when not estimated. */
  until: Date | null;
  pinned: boolean;
  /** The ToolErrorCode stored with the entry (D3b); null when OK or unknown. */
  code: ToolErrorCode | null;
}

/** A wider entry the winner hid. `status` is as stored: a pin on a shadowed entry lost anyway. */
export interface ShadowedEntry {
  scope: Scope;
  scopeId: string | null;
  status: ToolStatus;
}

/** Like a feature flag's evaluation reason: why a tool reads as it does in this context. */
export interface CascadeTrace {
  reason: CascadeReason;
  matched: CascadeMatch | null;
  shadowed: ShadowedEntry[];
  /** The call evaluation's steps (reach, what governs, maintenance, back-at); empty when not evaluated (D20). */
  why: string[];
}

/**
 * Since when the effective status holds. A pin that agrees with the stored status does not
 * restart it (the tool was down before the admin confirmed it); one that overrides it starts
 * at the pin. Falls back to null only for the default OK, which has no entry.
 */
export function effectiveSince(effective: EffectiveHealth<CascadeEntry>): Date | null {
  const winner = effective.winner;
  if (!winner) return null;
  if (effective.reason === CascadeReason.PINNED && winner.pin && winner.pin.status !== winner.status) {
    return winner.pin.at;
  }
  return winner.since;
}

export function explainCascade(effective: EffectiveHealth<CascadeEntry>, why: readonly string[] = []): CascadeTrace {
  const winner = effective.winner;
  const shadowed = effective.shadowed.map((doc) => ({ scope: doc.scope, scopeId: doc.scopeId, status: doc.status }));
  if (!winner) return { reason: effective.reason, matched: null, shadowed, why: [...why] };
  const pin = effective.reason === CascadeReason.PINNED ? winner.pin : null;
  return {
    reason: effective.reason,
    matched: {
      scope: winner.scope,
      scopeId: winner.scopeId,
      by: pin ? pin.by : (winner.lastDiagnosis?.by ?? null),
      since: effectiveSince(effective)!,
      until: pin ? pin.until : winner.expectedRecoveryAt,
      pinned: pin !== null,
      code: winner.code,
    },
    shadowed,
    why: [...why],
  };
}
