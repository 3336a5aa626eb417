import { ID, registerEnumType } from '@nestjs/graphql';
import { MaintenancePhase, MaintenanceView, MaintenanceWindow, phaseOf } from '../../domain/maintenance-window';
import { Scope } from '../../shapes/enums.registration';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType, enumView } from '../../shapes/view-field';

// A maintenance window as both APIs answer it (issue 16): one class per shape (P115), built by
// the mappers below, the one way REST, GraphQL and the lookups make it.

registerEnumType(MaintenancePhase, {
  name: 'MaintenancePhase',
  description: 'Where a maintenance window stands.',
  valuesMap: {
    UPCOMING: { description: 'Not started yet.' },
    IN_FORCE: { description: 'Running now: the tool reads as DOWN in its reach.' },
    ENDED: { description: 'Over.' },
    CANCELLED: { description: 'Cancelled by an admin.' },
  },
});

@ViewType('MaintenanceWindow', 'A planned outage of one tool at one key.')
export class MaintenanceWindowView {
  @ViewField("The window's id.", { type: () => ID, openapi: { type: String } }) id: string;
  @ViewField('The scope of the key the window applies to.', enumView(Scope, 'Scope')) scope: Scope;
  @ViewField('The scope id; null for GLOBAL.', NULLABLE_STRING) scopeId: string | null;
  @ViewField('The tool under maintenance.') toolName: string;
  @ViewField('When the window begins.', INSTANT) from: Date;
  @ViewField('When the tool is expected back.', INSTANT) until: Date;
  @ViewField('Why the tool is under maintenance, in words an LLM may read.') reason: string;
  @ViewField('"admin:<key name>" of the last change.') by: string;
  @ViewField('Coming, in force, over or cancelled, at the time of the answer.', enumView(MaintenancePhase, 'MaintenancePhase'))
  phase: MaintenancePhase;
  @ViewField('When the window was scheduled.', INSTANT) createdAt: Date;
  @ViewField('When the window last changed.', INSTANT) updatedAt: Date;
  @ViewField('When the window was cancelled; null when it was not.', { ...INSTANT, nullable: true }) cancelledAt: Date | null;
  @ViewField('Who cancelled it; null when nobody did.', NULLABLE_STRING) cancelledBy: string | null;
}

const WINDOW = { type: () => MaintenanceWindowView, nullable: true, openapi: { type: MaintenanceWindowView } };

@ViewType('MaintenanceSummary', 'What a lookup says about maintenance: the window in force and the next one coming.')
export class MaintenanceSummaryView {
  @ViewField('The window in force now; null when none is.', WINDOW) inForce: MaintenanceWindowView | null;
  @ViewField('The next window starting within MAINTENANCE_LOOKAHEAD_MS; null when none does.', WINDOW)
  upcoming: MaintenanceWindowView | null;
}

export function toMaintenanceWindowView(window: MaintenanceWindow, now: Date): MaintenanceWindowView {
  return {
    id: window.id,
    scope: window.scope,
    scopeId: window.scopeId,
    toolName: window.toolName,
    from: window.from,
    until: window.until,
    reason: window.reason,
    by: window.by,
    phase: phaseOf(window, now),
    createdAt: window.createdAt,
    updatedAt: window.updatedAt,
    cancelledAt: window.cancelledAt,
    cancelledBy: window.cancelledBy,
  };
}

export function toMaintenanceSummaryView(view: Pick<MaintenanceView, 'inForce' | 'upcoming'>, now: Date): MaintenanceSummaryView {
  return {
    inForce: view.inForce && toMaintenanceWindowView(view.inForce, now),
    upcoming: view.upcoming && toMaintenanceWindowView(view.upcoming, now),
  };
}
