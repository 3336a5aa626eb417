import { CallEvaluation, whyOf } from '../../domain/call-evaluation';
import { explainCascade } from '../../domain/cascade-trace';
import { isPinned, isRetesting } from '../../domain/health-entry';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { CascadeTraceView, toCascadeTraceView } from '../../shapes/cascade-trace.view';
import { CascadeReason, Scope, ToolStatus } from '../../shapes/enums.registration';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { INSTANT, NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType, enumView } from '../../shapes/view-field';
import { MaintenanceSummaryView, toMaintenanceSummaryView } from '../maintenance/maintenance-window.view';
import { ToolSignals } from '../../domain/tool-signals';
import { ToolSignalsView, toSignalsView } from '../tool-stats/tool-stats.view';

// The cascade's answer for one tool (§4, D20): one class per shape for REST and GraphQL (P115),
// each built by its mapper below, the one way both APIs make it.

const STATUS = enumView(ToolStatus, 'ToolStatus');
const RETESTING = 'DOWN or DEGRADED, but its expected recovery time has passed: the next call tries the tool again.';

@ViewType('CascadeEntry', 'One stored entry of the context cascade.')
export class EntrySummaryView {
  @ViewField('Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).', enumView(Scope, 'Scope'))
  scope: Scope;
  @ViewField('The id of the session, user, project or tenant; null for GLOBAL.', NULLABLE_STRING) scopeId: string | null;
  @ViewField('The stored status of the entry.', STATUS) status: ToolStatus;
  @ViewField(RETESTING) retesting: boolean;
  @ViewField('Whether an admin pin is in force on the entry.') pinned: boolean;
}

const ENTRIES: ViewFieldOptions = { type: () => [EntrySummaryView], openapi: { type: [EntrySummaryView] } };

@ViewType('EffectiveHealth', "The effective status of a tool for a caller's context, and the reason for it.")
export class EffectiveHealthView {
  @ViewField('The tool, e.g. "jira_search".') toolName: string;
  @ViewField('The effective status in this context.', STATUS) status: ToolStatus;
  @ViewField(RETESTING) retesting: boolean;
  @ViewField('Which rule decided: an entry, a pin, or nothing known (OK by default).', enumView(CascadeReason, 'CascadeReason'))
  reason: CascadeReason;
  @ViewField('The entry that decided; null = default OK.', {
    type: () => ToolHealthView,
    nullable: true,
    openapi: { type: ToolHealthView },
  })
  winner: ToolHealthView | null;
  @ViewField('Stored entries of the cascade, narrow to wide.', ENTRIES) considered: EntrySummaryView[];
  @ViewField('Wider problem entries the deciding entry hid, narrow to wide.', ENTRIES) shadowed: EntrySummaryView[];
  @ViewField('Why the tool reads as it does: the entry that decided, by whom, since and until when, and what it hid.', {
    type: () => CascadeTraceView,
    openapi: { type: CascadeTraceView },
  })
  trace: CascadeTraceView;
  @ViewField(
    'When the tool is expected back: the first instant nothing in reach blocks it — outages, windows in force and the windows that follow without a gap; null when nothing blocks or when a block has no known end (see blocked).',
    { ...INSTANT, nullable: true },
  )
  backAt: Date | null;
  @ViewField('Whether something in reach blocks the call now (a DOWN entry or pin, a window in force).') blocked: boolean;
  @ViewField('The maintenance window in force for this tool and caller, and the next one coming; null when none.', {
    type: () => MaintenanceSummaryView,
    nullable: true,
    openapi: { type: MaintenanceSummaryView },
  })
  maintenance: MaintenanceSummaryView | null;
  @ViewField(
    "Evidence from everyone's recent calls, beside the status (which it never changes): the tool is failing often or slow right now compared with its usual; null when neither.",
    { type: () => ToolSignalsView, nullable: true, openapi: { type: ToolSignalsView } },
  )
  signals: ToolSignalsView | null;
}

function summary(doc: ToolHealthDocument, now: Date): EntrySummaryView {
  return { scope: doc.scope, scopeId: doc.scopeId, status: doc.status, retesting: isRetesting(doc, now), pinned: isPinned(doc, now) };
}

export function toEffectiveHealthView(effective: CallEvaluation, now: Date, signals: ToolSignals | null): EffectiveHealthView {
  return {
    toolName: effective.toolName,
    status: effective.status,
    retesting: effective.retesting,
    reason: effective.reason,
    winner: effective.winner,
    considered: effective.considered.map((d) => summary(d, now)),
    shadowed: effective.shadowed.map((d) => summary(d, now)),
    trace: toCascadeTraceView(explainCascade(effective, whyOf(effective))),
    backAt: effective.backAt.at,
    blocked: effective.backAt.blocked,
    maintenance: effective.maintenance ? toMaintenanceSummaryView(effective.maintenance, now) : null,
    signals: toSignalsView(signals),
  };
}
