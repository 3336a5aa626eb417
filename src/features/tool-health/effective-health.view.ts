import { toCascadeTraceView } from '../../shapes/cascade-trace.view';
import { CallEvaluation } from '../../domain/call-evaluation';
import { explainCascade } from '../../domain/cascade-trace';
import { isPinned, isRetesting } from '../../domain/health-entry';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { EffectiveHealthView, EntrySummaryView } from './lookup.dto';
import { toMaintenanceWindowView } from '../maintenance/maintenance.dto';

function summary(doc: ToolHealthDocument, now: Date): EntrySummaryView {
  return { scope: doc.scope, scopeId: doc.scopeId, status: doc.status, retesting: isRetesting(doc, now), pinned: isPinned(doc, now) };
}

export function toEffectiveHealthView(effective: CallEvaluation, now: Date): EffectiveHealthView {
  return {
    toolName: effective.toolName,
    status: effective.status,
    retesting: effective.retesting,
    reason: effective.reason,
    winner: effective.winner,
    considered: effective.considered.map((d) => summary(d, now)),
    shadowed: effective.shadowed.map((d) => summary(d, now)),
    trace: toCascadeTraceView(explainCascade(effective, effective.why)),
    backAt: effective.backAt.at,
    blocked: effective.backAt.blocked,
    maintenance: effective.maintenance
      ? {
          inForce: effective.maintenance.inForce && toMaintenanceWindowView(effective.maintenance.inForce, now),
          upcoming: effective.maintenance.upcoming && toMaintenanceWindowView(effective.maintenance.upcoming, now),
        }
      : null,
  };
}
