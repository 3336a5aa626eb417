import { evaluateCall } from './call-evaluation';
import { CascadeReason } from './cascade';
import type { EffectiveSource } from './health-events';
import { isPinned } from './health-entry';
import { MaintenanceView } from './maintenance-window';
import { Scope } from './scope';
import { CallContext, CascadeEntry, HealthKey } from './tool-health-document';
import { ToolStatus } from './tool-status';

/**
 * What a scope reads as: the status an event, a webhook body and a Slack line give (D27). It is
 * the one evaluation (D20) of a caller who stands at that scope and no narrower one — its own
 * entry, then the wider ones, pins bounding the reach, windows in force — so a tenant's
 * "maintenance ended" reads DOWN while the tool is DOWN for everyone, as that tenant's callers
 * are told.
 */
export interface ScopeStatus {
  status: ToolStatus;
  /** Why: the scope's own entry or a wider one (a live problem, a pin), a window, or nothing wrong; where, and until when. */
  source: EffectiveSource;
}

/**
 * The context of a caller at exactly this scope: its own id, and its tenant where the scope is
 * narrower than one and the tenant is known. A SESSION scope names no user or project, so an
 * entry of those is not in its reach (nothing says whose session it is).
 */
export function contextOfScope(key: Pick<HealthKey, 'scope' | 'scopeId'>, tenantId: string | null): CallContext {
  switch (key.scope) {
    case Scope.SESSION:
      return { sessionId: key.scopeId, tenantId };
    case Scope.USER:
      return { userId: key.scopeId, tenantId };
    case Scope.PROJECT:
      return { projectId: key.scopeId, tenantId };
    case Scope.TENANT:
      return { tenantId: key.scopeId };
    case Scope.GLOBAL:
      return {};
  }
}

/** The status of `key`'s scope at `at`, from the stored entries of its cascade and the windows of that tool there. */
export function scopeStatus<E extends CascadeEntry>(
  key: HealthKey,
  tenantId: string | null,
  entries: ReadonlyMap<string, E>,
  maintenance: MaintenanceView,
  at: Date,
): ScopeStatus {
  const evaluation = evaluateCall({ toolName: key.toolName, context: contextOfScope(key, tenantId), entries, now: at, maintenance });
  const winner = evaluation.winner;
  let until: Date | null = null;
  if (evaluation.reason === CascadeReason.MAINTENANCE) until = evaluation.maintenance?.inForce?.until ?? null;
  else if (winner && isPinned(winner, at)) until = winner.pin!.until;
  else if (winner) until = winner.expectedRecoveryAt;
  return {
    status: evaluation.status,
    source: { reason: evaluation.reason, scope: winner?.scope ?? null, scopeId: winner?.scopeId ?? null, until },
  };
}
