import { DomainError } from './domain-error';
import { contextScopeId, validateKey } from './health-key';
import {
  Occurrence,
  Recurrence,
  SeriesShape,
  checkRecurrence,
  isRuleOccurrence,
  nextOccurrence,
  occurrenceKey,
  occurrencesBetween,
  sameInstant,
} from './recurrence';
import type { BlankableKeys } from './same-keys';
import { scopeRank } from './scope';
import { CallContext, HealthKey } from './tool-health-document';

/**
 * Issue 16: a planned outage of one tool at one key (scope, scopeId, tool), scheduled by an admin.
 * In force it reads as DOWN with `expectedRecoveryAt = until` (reason MAINTENANCE); before it
 * starts, lookups and the annotation can show it coming. It is an overlay like a pin (D4b):
 * nothing stored in tool_health changes, so when it ends the stored evidence applies again.
 */
export interface MaintenanceWindow extends HealthKey {
  id: string;
  from: Date;
  until: Date;
  reason: string;
  /** "admin:<key name>" of the scheduling admin. */
  by: string;
  createdAt: Date;
  updatedAt: Date;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  /** When this service recorded the start / end event (P77); null = not yet. */
  startedEventAt: Date | null;
  endedEventAt: Date | null;
  version: number;
  /**
   * Set on a recurring series (P190). `from`/`until` are then its first occurrence:
   * the local start and the duration of each. A series never reaches the evaluation itself:
   * it is expanded into its occurrences (occurrenceWindows), each a one-off window.
   */
  recurrence?: Recurrence | null;
  /** Set on an occurrence expanded from a series: the series' id… */
  seriesId?: string | null;
  /** …and the start the rule gives this occurrence (its RECURRENCE-ID). */
  occurrence?: Date | null;
  /** When the MAINTENANCE_STARTING warning of a one-off window was written; null = not yet (P192). */
  warnedEventAt?: Date | null;
  /** A series' events are written for every instant up to this one (null: none yet) (P192). */
  eventsThrough?: Date | null;
  /** "<occurrence key>:<event type>" of the events written for occurrences not over at eventsThrough (P192). */
  eventMarks?: string[];
}

/** The fields only a series carries (P190, P192): absent on a one-off window, and read as they are stored. */
type SeriesOnlyField = 'recurrence' | 'eventsThrough' | 'eventMarks' | 'seriesId' | 'occurrence';

/**
 * The one place a window's neutral values are written: what a window stored before such a field
 * existed reads as (the repository fills them in; the driver applies no schema default). Its type
 * names every field that may be null or is a list, so a new one fails `tsc` until it is given here.
 */
export function windowBlanks(): Pick<MaintenanceWindow, Exclude<BlankableKeys<MaintenanceWindow>, SeriesOnlyField>> {
  return { scopeId: null, cancelledAt: null, cancelledBy: null, startedEventAt: null, endedEventAt: null, warnedEventAt: null };
}

export function isSeries(window: MaintenanceWindow): window is MaintenanceWindow & { recurrence: Recurrence } {
  return window.recurrence != null;
}

function seriesShape(series: MaintenanceWindow & { recurrence: Recurrence }) {
  return { from: series.from, until: series.until, cancelledAt: series.cancelledAt, recurrence: series.recurrence };
}

/** One occurrence of a series as a one-off window (its id "<series id>@<occurrence key>"). */
function occurrenceWindow(series: MaintenanceWindow, o: Occurrence): MaintenanceWindow {
  return {
    ...series,
    id: `${series.id}@${occurrenceKey(o.occurrence)}`,
    from: o.from,
    until: o.until,
    reason: o.reason ?? series.reason,
    // Cut short by the series' cancellation: the occurrence says so (its end event's payload).
    cancelledAt: series.cancelledAt && sameInstant(o.until, series.cancelledAt) ? series.cancelledAt : null,
    cancelledBy: series.cancelledAt && sameInstant(o.until, series.cancelledAt) ? series.cancelledBy : null,
    startedEventAt: null,
    endedEventAt: null,
    recurrence: null,
    seriesId: series.id,
    occurrence: o.occurrence,
    warnedEventAt: null,
    eventsThrough: null,
    eventMarks: [],
  };
}

/**
 * The occurrences of a series overlapping [start, end) and those that follow
 * them without a gap, as one-off windows; a one-off window itself when it overlaps (P190).
 */
export function occurrenceWindows(window: MaintenanceWindow, start: Date, end: Date): MaintenanceWindow[] {
  if (!isSeries(window)) {
    return window.until.getTime() > start.getTime() && window.from.getTime() < end.getTime() ? [window] : [];
  }
  return occurrencesBetween(seriesShape(window), start, end).map((o) => occurrenceWindow(window, o));
}

/** Every window of `windows` as the evaluation sees it over [start, end): series expanded. */
export function expandWindows(windows: Iterable<MaintenanceWindow>, start: Date, end: Date): MaintenanceWindow[] {
  const out: MaintenanceWindow[] = [];
  for (const w of windows) out.push(...occurrenceWindows(w, start, end));
  return out;
}

export enum MaintenancePhase {
  UPCOMING = 'UPCOMING',
  IN_FORCE = 'IN_FORCE',
  ENDED = 'ENDED',
  CANCELLED = 'CANCELLED',
}

export const MAX_MAINTENANCE_REASON_LENGTH = 500;
/** How far ahead an occurrence may be skipped or changed, and how many exceptions a series keeps (P191). */
export const MAX_EXCEPTION_AHEAD_MS = 731 * 24 * 3_600_000;
export const MAX_EXCEPTIONS = 500;
/** Longer outages are not "maintenance": a pin (D4b) or a verdict says that. */
export const MAX_MAINTENANCE_DURATION_MS = 31 * 24 * 3_600_000;

/**
 * A series' occurrence in force at `now`, else its next one (skips, changes and the end applied);
 * null for a one-off window and for a series with none left. What a read shows as the series'
 * times: its `from`/`until` are its first occurrence, long past for an old series.
 */
/**
 * The occurrences of a series that overlap [start, end), skips and changes applied, for a calendar
 * strip that draws each one; a one-off window has none (it is its own single bar). Takes the
 * series' shape, so a read model that carries the same fields can ask too.
 */
export function occurrencesWithin(
  series: Omit<SeriesShape, 'recurrence'> & { recurrence?: Recurrence | null },
  start: Date,
  end: Date,
): Occurrence[] {
  const { recurrence } = series;
  return recurrence ? occurrencesBetween({ ...series, recurrence }, start, end) : [];
}

export function currentOccurrence(window: MaintenanceWindow, now: Date): Occurrence | null {
  if (!isSeries(window) || window.cancelledAt) return null;
  return nextOccurrence(seriesShape(window), now);
}

export function phaseOf(window: MaintenanceWindow, now: Date): MaintenancePhase {
  if (window.cancelledAt) return MaintenancePhase.CANCELLED;
  if (isSeries(window)) {
    // A series: in force while one of its occurrences is, coming while one is ahead.
    const next = currentOccurrence(window, now);
    if (!next) return MaintenancePhase.ENDED;
    return next.from.getTime() <= now.getTime() ? MaintenancePhase.IN_FORCE : MaintenancePhase.UPCOMING;
  }
  const t = now.getTime();
  if (t < window.from.getTime()) return MaintenancePhase.UPCOMING;
  if (t < window.until.getTime()) return MaintenancePhase.IN_FORCE;
  return MaintenancePhase.ENDED;
}

export function isInForce(window: MaintenanceWindow, now: Date): boolean {
  return phaseOf(window, now) === MaintenancePhase.IN_FORCE;
}

/** Not yet started and starting within `lookaheadMs` (MAINTENANCE_LOOKAHEAD_MS). */
export function isUpcoming(window: MaintenanceWindow, now: Date, lookaheadMs: number): boolean {
  return phaseOf(window, now) === MaintenancePhase.UPCOMING && window.from.getTime() - now.getTime() <= lookaheadMs;
}

/** A window governs a call when its key is one of the call's cascade keys (§4). */
export function appliesTo(window: MaintenanceWindow, toolName: string, context: CallContext): boolean {
  if (window.toolName !== toolName) return false;
  const scopeId = contextScopeId(window.scope, context);
  return scopeId !== undefined && scopeId === window.scopeId;
}

/** What the windows say about one tool in one context at one instant. */
export interface MaintenanceView {
  /** The narrowest window in force (of equals, the one ending last). */
  inForce: MaintenanceWindow | null;
  /** The next window to start within the lookahead (any scope of the cascade). */
  upcoming: MaintenanceWindow | null;
  /**
   * Every window of the call's cascade not over and not cancelled, in force or ahead (as far
   * as the snapshot reaches), so "back at" can chain windows that follow without a gap (D20).
   * Absent in hand-built views: then inForce and upcoming are all there is.
   */
  windows?: readonly MaintenanceWindow[];
}

export const NO_MAINTENANCE: MaintenanceView = Object.freeze({ inForce: null, upcoming: null, windows: [] });

/** The windows a view knows of (see MaintenanceView.windows). */
export function windowsOf(view: MaintenanceView): readonly MaintenanceWindow[] {
  if (view.windows) return view.windows;
  return [view.inForce, view.upcoming].filter((w): w is MaintenanceWindow => w !== null);
}

export function maintenanceFor(
  windows: Iterable<MaintenanceWindow>,
  toolName: string,
  context: CallContext,
  now: Date,
  lookaheadMs: number,
): MaintenanceView {
  let inForce: MaintenanceWindow | null = null;
  let upcoming: MaintenanceWindow | null = null;
  const applying: MaintenanceWindow[] = [];
  for (const w of windows) {
    if (!appliesTo(w, toolName, context)) continue;
    const phase = phaseOf(w, now);
    if (phase === MaintenancePhase.IN_FORCE || phase === MaintenancePhase.UPCOMING) applying.push(w);
    if (isInForce(w, now)) {
      const narrower = inForce === null || scopeRank(w.scope) < scopeRank(inForce.scope);
      const sameLater = inForce !== null && w.scope === inForce.scope && w.until.getTime() > inForce.until.getTime();
      if (narrower || sameLater) inForce = w;
    } else if (isUpcoming(w, now, lookaheadMs) && (upcoming === null || w.from.getTime() < upcoming.from.getTime())) {
      upcoming = w;
    }
  }
  // Nothing in force or coming within the lookahead: nothing to show, and nothing to chain onto.
  return inForce === null && upcoming === null ? NO_MAINTENANCE : { inForce, upcoming, windows: applying };
}

// ---- writes (pure): schedule, change, cancel ---------------------------------------------------

export interface ScheduleRequest {
  scope: unknown;
  scopeId?: unknown;
  toolName: unknown;
  from: Date;
  until: Date;
  reason: string;
  /** An RRULE value (FREQ=WEEKLY;BYDAY=SA) makes the window a series; needs timeZone (P190). */
  rrule?: string | null;
  /** The IANA zone the rule's local times are read in. */
  timeZone?: string | null;
}

/**
 * The fields of a window an admin sets when scheduling it and may change later (the change
 * request carries exactly these; the requests' field table is keyed by this type). The times and
 * the reason have rules of their own below; any other setting is taken as its request field
 * validated it, and a change that leaves it out keeps it (settingsSent).
 */
export const WINDOW_SETTINGS = ['from', 'until', 'reason'] as const satisfies readonly (keyof MaintenanceWindow)[];
export type WindowSettings = Pick<MaintenanceWindow, (typeof WINDOW_SETTINGS)[number]>;
const RULED_SETTINGS: ReadonlySet<string> = new Set<keyof WindowSettings>(['from', 'until', 'reason']);

/** The settings without a rule of their own here, read off a window or a request (null ones too). */
export function plainSettingsOf(source: object): Partial<MaintenanceWindow> {
  const names = (WINDOW_SETTINGS as readonly string[]).filter((name) => !RULED_SETTINGS.has(name));
  return Object.fromEntries(names.map((name) => [name, (source as Record<string, unknown>)[name]]));
}

/** The plain settings a request sends (absent or null: not sent), as they are. */
function settingsSent(request: object): Partial<MaintenanceWindow> {
  return Object.fromEntries(Object.entries(plainSettingsOf(request)).filter(([, value]) => value != null));
}

/** Absent or null: unchanged (P24: callers in many languages send null for "not given"). */
export type ChangeRequest = { [K in keyof WindowSettings]?: WindowSettings[K] | null };

function checkTimes(from: Date, until: Date, now: Date): void {
  if (!(from instanceof Date) || Number.isNaN(from.getTime())) throw DomainError.invalid('from', 'must be a date-time');
  if (!(until instanceof Date) || Number.isNaN(until.getTime())) throw DomainError.invalid('until', 'must be a date-time');
  if (until.getTime() <= from.getTime()) throw DomainError.invalid('until', 'must be after from');
  if (until.getTime() <= now.getTime()) throw DomainError.invalid('until', 'must be in the future');
  if (until.getTime() - from.getTime() > MAX_MAINTENANCE_DURATION_MS) {
    throw DomainError.invalid('until', 'a window lasts at most 31 days (pin the entry for longer outages)');
  }
}

function checkReason(reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim() === '') throw DomainError.invalid('reason', 'must be a non-empty string');
  if (reason.length > MAX_MAINTENANCE_REASON_LENGTH)
    throw DomainError.invalid('reason', `must be at most ${MAX_MAINTENANCE_REASON_LENGTH} characters`);
  return reason;
}

export function scheduleWindow(request: ScheduleRequest, id: string, by: string, now: Date): MaintenanceWindow {
  const key = validateKey(request);
  checkTimes(request.from, request.until, now);
  let recurrence: Recurrence | null = null;
  if (request.rrule != null || request.timeZone != null) {
    if (request.rrule == null) throw DomainError.invalid('rrule', 'is required with timeZone');
    if (request.timeZone == null) throw DomainError.invalid('timeZone', 'is required with rrule (an IANA zone such as Europe/Berlin)');
    const checked = checkRecurrence(request.rrule, request.timeZone, request.from, request.until);
    recurrence = { ...checked, endedAt: null, skipped: [], overrides: [] };
  }
  return {
    // What the request leaves out takes the window's neutral value (the domain's one list of them).
    ...windowBlanks(),
    ...settingsSent(request),
    ...(recurrence ? { recurrence, eventsThrough: null, eventMarks: [] } : {}),
    ...key,
    id,
    from: request.from,
    until: request.until,
    reason: checkReason(request.reason),
    by,
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
    cancelledBy: null,
    startedEventAt: null,
    endedEventAt: null,
    version: 1,
  };
}

/**
 * A window can be changed until it ends. Once in force its start is history: only `until`
 * (to extend or shorten it, not into the past) and the reason may change.
 */
export function changeWindow(window: MaintenanceWindow, change: ChangeRequest, by: string, now: Date): MaintenanceWindow {
  const phase = phaseOf(window, now);
  if (phase === MaintenancePhase.CANCELLED || phase === MaintenancePhase.ENDED) {
    throw DomainError.conflict(`maintenance window ${window.id} is ${phase.toLowerCase()}; schedule a new one`);
  }
  if (isSeries(window)) return changeSeries(window, change, by, now);
  if (change.from != null && phase === MaintenancePhase.IN_FORCE && change.from.getTime() !== window.from.getTime()) {
    throw DomainError.conflict(`maintenance window ${window.id} is in force: its start cannot change (change until, or cancel it)`);
  }
  const from = change.from ?? window.from;
  const until = change.until ?? window.until;
  checkTimes(from, until, now);
  const reason = change.reason == null ? window.reason : checkReason(change.reason);
  return { ...window, ...settingsSent(change), from, until, reason, by, updatedAt: now, version: window.version + 1 };
}

/**
 * A series (P191): its first start may move only before the series began (the rule is checked
 * against it again); `until` sets the duration of every occurrence not yet ended (the one in force
 * included, never into the past); the reason may change while it is not over.
 */
function changeSeries(
  series: MaintenanceWindow & { recurrence: Recurrence },
  change: ChangeRequest,
  by: string,
  now: Date,
): MaintenanceWindow {
  const began = series.from.getTime() <= now.getTime();
  if (change.from != null && began && change.from.getTime() !== series.from.getTime()) {
    throw DomainError.conflict(`maintenance series ${series.id} has begun: its first start cannot change (end it and schedule a new one)`);
  }
  const from = change.from ?? series.from;
  const until = change.until ?? series.until;
  if (began) {
    if (until.getTime() <= from.getTime()) throw DomainError.invalid('until', 'must be after from');
    if (until.getTime() - from.getTime() > MAX_MAINTENANCE_DURATION_MS) {
      throw DomainError.invalid('until', 'a window lasts at most 31 days (pin the entry for longer outages)');
    }
  } else {
    checkTimes(from, until, now);
  }
  const checked = checkRecurrence(series.recurrence.rrule, series.recurrence.timeZone, from, until);
  const reason = change.reason == null ? series.reason : checkReason(change.reason);
  const next = {
    ...series,
    ...settingsSent(change),
    from,
    until,
    reason,
    by,
    updatedAt: now,
    version: series.version + 1,
    recurrence: { ...series.recurrence, ...checked },
  };
  const running = occurrencesBetween(seriesShape(series), now, new Date(now.getTime() + 1)).find((o) => o.from.getTime() <= now.getTime());
  if (running && !series.recurrence.overrides.some((v) => sameInstant(v.occurrence, running.occurrence))) {
    if (running.occurrence.getTime() + (until.getTime() - from.getTime()) <= now.getTime()) {
      throw DomainError.invalid('until', 'would end the occurrence in force in the past (cancel the series to end it now)');
    }
  }
  return next;
}

function requireSeries(window: MaintenanceWindow): MaintenanceWindow & { recurrence: Recurrence } {
  if (!isSeries(window)) throw DomainError.conflict(`maintenance window ${window.id} does not recur`);
  if (window.cancelledAt) throw DomainError.conflict(`maintenance series ${window.id} is cancelled`);
  return window;
}

/** The occurrence of `series` the rule starts at `occurrence`, as it stands (null when skipped or past the series' end). */
function findOccurrence(series: MaintenanceWindow & { recurrence: Recurrence }, occurrence: Date, now: Date): Occurrence | null {
  if (!(occurrence instanceof Date) || Number.isNaN(occurrence.getTime())) throw DomainError.invalid('occurrence', 'must be a date-time');
  // The rule is iterated from its first start: a far instant would cost a long walk (and is no plan).
  if (occurrence.getTime() > now.getTime() + MAX_EXCEPTION_AHEAD_MS) {
    throw DomainError.invalid('occurrence', 'must start within 2 years from now');
  }
  const shape = seriesShape(series);
  const override = series.recurrence.overrides.find((v) => sameInstant(v.occurrence, occurrence));
  if (!override && series.recurrence.skipped.length + series.recurrence.overrides.length >= MAX_EXCEPTIONS) {
    throw DomainError.conflict(`maintenance series ${series.id} has ${MAX_EXCEPTIONS} exceptions: end it and schedule a new one`);
  }
  if (!override && !isRuleOccurrence(shape, occurrence)) {
    throw DomainError.invalid(
      'occurrence',
      `is not a start of the series ${series.id} (${series.recurrence.rrule} in ${series.recurrence.timeZone})`,
    );
  }
  if (series.recurrence.skipped.some((s) => sameInstant(s, occurrence))) return null;
  if (series.recurrence.endedAt && occurrence.getTime() >= series.recurrence.endedAt.getTime()) return null;
  return (
    override ?? {
      occurrence,
      from: occurrence,
      until: new Date(occurrence.getTime() + series.until.getTime() - series.from.getTime()),
      reason: null,
    }
  );
}

/** Skips one occurrence that has not begun (EXDATE, P191). */
export function skipOccurrence(window: MaintenanceWindow, occurrence: Date, by: string, now: Date): MaintenanceWindow {
  const series = requireSeries(window);
  const current = findOccurrence(series, occurrence, now);
  if (!current)
    throw DomainError.conflict(`occurrence ${occurrence.toISOString()} of series ${series.id} is already skipped or past its end`);
  if (current.from.getTime() <= now.getTime()) {
    throw DomainError.conflict(`occurrence ${occurrence.toISOString()} has begun: change its until, or cancel the series`);
  }
  const recurrence: Recurrence = {
    ...series.recurrence,
    skipped: [...series.recurrence.skipped, occurrence],
    overrides: series.recurrence.overrides.filter((v) => !sameInstant(v.occurrence, occurrence)),
  };
  return { ...series, recurrence, by, updatedAt: now, version: series.version + 1 };
}

/** Changes one occurrence alone (RECURRENCE-ID, P191): like a one-off window, its start only before it began. */
export function changeOccurrence(
  window: MaintenanceWindow,
  occurrence: Date,
  change: ChangeRequest,
  by: string,
  now: Date,
): MaintenanceWindow {
  const series = requireSeries(window);
  const current = findOccurrence(series, occurrence, now);
  if (!current) throw DomainError.conflict(`occurrence ${occurrence.toISOString()} of series ${series.id} is skipped or past its end`);
  if (current.until.getTime() <= now.getTime()) throw DomainError.conflict(`occurrence ${occurrence.toISOString()} has ended`);
  if (change.from != null && current.from.getTime() <= now.getTime() && change.from.getTime() !== current.from.getTime()) {
    throw DomainError.conflict(`occurrence ${occurrence.toISOString()} is in force: its start cannot change`);
  }
  const from = change.from ?? current.from;
  const until = change.until ?? current.until;
  checkTimes(from, until, now);
  const reason = change.reason == null ? current.reason : checkReason(change.reason);
  const override = { occurrence, from, until, reason };
  const recurrence: Recurrence = {
    ...series.recurrence,
    overrides: [...series.recurrence.overrides.filter((v) => !sameInstant(v.occurrence, occurrence)), override],
  };
  return { ...series, recurrence, by, updatedAt: now, version: series.version + 1 };
}

/**
 * Ends a series (P191): no occurrence starting at or after `at` (default now; not in the past)
 * happens; one already in force runs to its end (cancel the series to stop it now).
 */
export function endSeries(window: MaintenanceWindow, at: Date | null, by: string, now: Date): MaintenanceWindow {
  const series = requireSeries(window);
  const end = at ?? now;
  if (!(end instanceof Date) || Number.isNaN(end.getTime())) throw DomainError.invalid('at', 'must be a date-time');
  if (end.getTime() < now.getTime()) throw DomainError.invalid('at', 'must not be in the past');
  if (phaseOf(series, now) === MaintenancePhase.ENDED) throw DomainError.conflict(`maintenance series ${series.id} is ended`);
  const endedAt = series.recurrence.endedAt && series.recurrence.endedAt.getTime() < end.getTime() ? series.recurrence.endedAt : end;
  return { ...series, recurrence: { ...series.recurrence, endedAt }, by, updatedAt: now, version: series.version + 1 };
}

export function cancelWindow(window: MaintenanceWindow, by: string, now: Date): MaintenanceWindow {
  const phase = phaseOf(window, now);
  if (phase === MaintenancePhase.CANCELLED || phase === MaintenancePhase.ENDED) {
    throw DomainError.conflict(`maintenance window ${window.id} is ${phase.toLowerCase()}`);
  }
  return { ...window, cancelledAt: now, cancelledBy: by, updatedAt: now, version: window.version + 1 };
}

/**
 * The events a one-off window owes at `now` (P77): its start once it began, its end once it ended
 * or was cancelled after it began; P192: its warning while it starts within `leadMs` (not once it
 * began or was cancelled: then the warning would be news of the past).
 */
export function dueEvents(window: MaintenanceWindow, now: Date, leadMs = 0): { warn: boolean; start: boolean; end: boolean } {
  const began = window.from.getTime() <= now.getTime() && (!window.cancelledAt || window.cancelledAt.getTime() > window.from.getTime());
  const start = window.startedEventAt === null && began;
  const over = window.cancelledAt !== null || window.until.getTime() <= now.getTime();
  const end = window.endedEventAt === null && over && (began || window.startedEventAt !== null);
  const warn =
    leadMs > 0 &&
    (window.warnedEventAt ?? null) === null &&
    window.cancelledAt === null &&
    window.startedEventAt === null &&
    !began &&
    window.from.getTime() - leadMs <= now.getTime();
  return { warn, start, end };
}

export type MaintenanceEventKind = 'STARTING' | 'STARTED' | 'ENDED';

/** What a series owes at `now` (P192): the events, and the bookkeeping to store after writing them. */
export interface SeriesDue {
  events: { kind: MaintenanceEventKind; occurrence: MaintenanceWindow }[];
  eventsThrough: Date;
  eventMarks: string[];
  /** The series owes nothing more, ever (cancelled or ended, and its last occurrence's end written). */
  done: boolean;
}

/**
 * A series' events at `now` (P192), per occurrence like a one-off window's: the warning while it
 * starts within `leadMs`, the start once it began, the end once it ended. Occurrences over before
 * `eventsThrough` (the last completed tick; the creation at first) are settled and not looked at;
 * `eventMarks` keeps which events of the others were written, so each is written once per series
 * (the outbox's fixed ids, P77, make a repeat by another instance harmless too).
 */
export function seriesDueEvents(window: MaintenanceWindow, now: Date, leadMs: number): SeriesDue {
  if (!isSeries(window)) throw new Error('seriesDueEvents takes a series');
  const since = window.eventsThrough ?? window.createdAt;
  const marks = new Set(window.eventMarks ?? []);
  const occurrences = occurrencesBetween(seriesShape(window), since, new Date(now.getTime() + leadMs + 1))
    .filter((o) => o.until.getTime() > since.getTime() && o.from.getTime() - leadMs <= now.getTime())
    .map((o) => occurrenceWindow(window, o));
  const events: SeriesDue['events'] = [];
  const kept: string[] = [];
  for (const occurrence of occurrences) {
    const key = occurrenceKey(occurrence.occurrence as Date);
    const began = occurrence.from.getTime() <= now.getTime();
    const ended = occurrence.until.getTime() <= now.getTime();
    const owed: MaintenanceEventKind[] = [];
    if (!began && leadMs > 0 && window.cancelledAt === null) owed.push('STARTING');
    if (began) owed.push('STARTED');
    if (ended) owed.push('ENDED');
    for (const kind of owed) {
      const mark = `${key}:${kind}`;
      if (!marks.has(mark)) events.push({ kind, occurrence });
      if (!ended) kept.push(mark);
    }
    // A warning written before, for an occurrence that has now begun, stays marked until it ends.
    if (!ended) for (const kind of ['STARTING', 'STARTED'] as const) if (marks.has(`${key}:${kind}`)) kept.push(`${key}:${kind}`);
  }
  const over = window.cancelledAt !== null || phaseOf({ ...window, cancelledAt: null }, now) === MaintenancePhase.ENDED;
  const done = over && occurrences.every((o) => o.until.getTime() <= now.getTime());
  return { events, eventsThrough: now, eventMarks: [...new Set(kept)], done };
}

// ---- events (P77) -------------------------------------------------------------------------------

export interface MaintenancePayload {
  windowId: string;
  from: Date;
  until: Date;
  reason: string;
  by: string;
  /** Set on an end caused by cancellation. */
  cancelledAt: Date | null;
}

export function maintenancePayload(window: MaintenanceWindow): MaintenancePayload {
  return {
    windowId: window.id,
    from: window.from,
    until: window.until,
    reason: window.reason,
    by: window.by,
    cancelledAt: window.cancelledAt,
  };
}
