import { ID, registerEnumType } from '@nestjs/graphql';
import {
  MaintenancePhase,
  MaintenanceView,
  MaintenanceWindow,
  currentOccurrence,
  occurrencesWithin,
  phaseOf,
  plainSettingsOf,
} from '../../domain/maintenance-window';
import { Occurrence } from '../../domain/recurrence';
import type { SameKeys } from '../../domain/same-keys';
import { Scope } from '../../shapes/enums.registration';
import { INSTANT, NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType, enumView } from '../../shapes/view-field';

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

@ViewType('MaintenanceOccurrenceOverride', 'One occurrence of a recurring window changed alone.')
export class OccurrenceOverrideView {
  @ViewField('The start the rule gives the occurrence (its RECURRENCE-ID).', INSTANT) occurrence: Date;
  @ViewField('When it begins instead.', INSTANT) from: Date;
  @ViewField('When it ends instead.', INSTANT) until: Date;
  @ViewField("Its own reason; null: the series' reason.", NULLABLE_STRING) reason: string | null;
}

@ViewType('MaintenanceOccurrence', 'One occurrence of a recurring window, at its own times (skips and changes applied).')
export class OccurrenceView {
  @ViewField('The start the rule gives the occurrence (its RECURRENCE-ID).', INSTANT) occurrence: Date;
  @ViewField('When it begins.', INSTANT) from: Date;
  @ViewField('When the tool is expected back.', INSTANT) until: Date;
  @ViewField('Why, in words an LLM may read.') reason: string;
}

const OCCURRENCE: ViewFieldOptions = { type: () => OccurrenceView, nullable: true, openapi: { type: OccurrenceView } };

const INSTANTS: ViewFieldOptions = { type: () => [Date], openapi: { type: [String], format: 'date-time' } };
const OVERRIDES: ViewFieldOptions = { type: () => [OccurrenceOverrideView], openapi: { type: [OccurrenceOverrideView] } };

@ViewType('MaintenanceRecurrence', 'How a maintenance window recurs: an RRULE in an IANA zone, with its exceptions.')
export class RecurrenceView {
  @ViewField('The RFC 5545 RRULE value.') rrule: string;
  @ViewField("The IANA zone the rule's local times are read in.") timeZone: string;
  @ViewField('No occurrence starts at or after this instant; null while the rule alone decides.', { ...INSTANT, nullable: true })
  endedAt: Date | null;
  @ViewField('Original starts of the occurrences skipped.', INSTANTS) skipped: Date[];
  @ViewField('Occurrences changed alone.', OVERRIDES) overrides: OccurrenceOverrideView[];
}

/** How far ahead a series lists its occurrences: the week a calendar strip shows. */
export const OCCURRENCES_AHEAD_DAYS = 7;
const OCCURRENCES: ViewFieldOptions = { type: () => [OccurrenceView], openapi: { type: [OccurrenceView] } };

const RECURRENCE: ViewFieldOptions = { type: () => RecurrenceView, nullable: true, openapi: { type: RecurrenceView } };

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
  @ViewField('How the window recurs (from/until are then its first occurrence); null for a one-off window.', RECURRENCE)
  recurrence: RecurrenceView | null;
  @ViewField(
    'For a recurring window: the occurrence in force now or, when none is, the next one — the times to show for the series; null for a one-off window and for a series with none left.',
    OCCURRENCE,
  )
  current: OccurrenceView | null;
  @ViewField(
    `For a recurring window: each occurrence in force or starting within the next ${OCCURRENCES_AHEAD_DAYS} days, at its own times (skips and changes applied), earliest first; empty for a one-off window.`,
    OCCURRENCES,
  )
  occurrencesAhead: OccurrenceView[];
  @ViewField('On an occurrence of a recurring window: the series id; else null.', NULLABLE_STRING) seriesId: string | null;
  @ViewField("On an occurrence of a recurring window: the start the series' rule gives it; else null.", { ...INSTANT, nullable: true })
  occurrence: Date | null;
}

const WINDOW = { type: () => MaintenanceWindowView, nullable: true, openapi: { type: MaintenanceWindowView } };

@ViewType('MaintenanceSummary', 'What a lookup says about maintenance: the window in force and the next one coming.')
export class MaintenanceSummaryView {
  @ViewField('The window in force now; null when none is.', WINDOW) inForce: MaintenanceWindowView | null;
  @ViewField('The next window starting within MAINTENANCE_LOOKAHEAD_MS; null when none does.', WINDOW)
  upcoming: MaintenanceWindowView | null;
}

/**
 * The answer shows every field of the window but the event bookkeeping, plus what it derives
 * (phase, current, occurrencesAhead): a field the domain adds without its `@ViewField` above (or the reverse) fails `tsc` here.
 */
export const MAINTENANCE_WINDOW_VIEW_SHOWS_THE_WINDOW: SameKeys<
  keyof MaintenanceWindowView,
  | Exclude<keyof MaintenanceWindow, 'startedEventAt' | 'endedEventAt' | 'version' | 'warnedEventAt' | 'eventsThrough' | 'eventMarks'>
  | 'phase'
  | 'current'
  | 'occurrencesAhead'
> = true;

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
    recurrence: window.recurrence
      ? {
          rrule: window.recurrence.rrule,
          timeZone: window.recurrence.timeZone,
          endedAt: window.recurrence.endedAt,
          skipped: [...window.recurrence.skipped],
          overrides: window.recurrence.overrides.map((o) => ({ ...o })),
        }
      : null,
    current: occurrenceView(window, currentOccurrence(window, now)),
    occurrencesAhead: occurrencesAhead(window, now),
    seriesId: window.seriesId ?? null,
    occurrence: window.occurrence ?? null,
    // Settings without a rule of their own, as stored: a new one shows with its @ViewField alone.
    ...plainSettingsOf(window),
  };
}

/** Only a series itself lists them: an occurrence (it carries its series' rule) would expand the series again on every lookup. */
function occurrencesAhead(window: MaintenanceWindow, now: Date): OccurrenceView[] {
  if (!window.recurrence || window.seriesId || window.cancelledAt) return [];
  const end = new Date(now.getTime() + OCCURRENCES_AHEAD_DAYS * 86_400_000);
  return occurrencesWithin(window, now, end).map((o) => occurrenceView(window, o)!);
}

function occurrenceView(window: MaintenanceWindow, o: Occurrence | null): OccurrenceView | null {
  return o && { occurrence: o.occurrence, from: o.from, until: o.until, reason: o.reason ?? window.reason };
}

export function toMaintenanceSummaryView(view: Pick<MaintenanceView, 'inForce' | 'upcoming'>, now: Date): MaintenanceSummaryView {
  return {
    inForce: view.inForce && toMaintenanceWindowView(view.inForce, now),
    upcoming: view.upcoming && toMaintenanceWindowView(view.upcoming, now),
  };
}
