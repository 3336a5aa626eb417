import { Frequency, Options, RRule } from 'rrule';
import { DomainError } from './domain-error';
import { instantOfLocalWall, localWallMs, validTimeZone } from './local-time';

/**
 * A maintenance window that recurs (D25 (P190)). The series is stored as one window
 * whose `from`/`until` are its first occurrence (the local start and the duration of every
 * occurrence) plus an RFC 5545 RRULE in an IANA time zone. The rule is parsed and expanded by the
 * `rrule` package, on "floating" dates: the wall clock of the zone written as UTC fields, so
 * "FREQ=WEEKLY;BYDAY=SA" from Saturday 18:00 Europe/Berlin stays 18:00 local across both
 * daylight-saving changes; each wall time is then turned into an instant here (local-time.ts,
 * offsets from Intl), never by rrule's own `tzid` handling.
 */
export interface Recurrence {
  /** The RRULE value, without "RRULE:" or DTSTART (the series' `from` is its DTSTART). */
  rrule: string;
  /** IANA zone the rule's wall times are read in. */
  timeZone: string;
  /** The series was ended: no occurrence starting at or after this instant happens. */
  endedAt: Date | null;
  /** Original starts of occurrences skipped alone (EXDATE). */
  skipped: Date[];
  /** Occurrences changed alone (RECURRENCE-ID): the original start and the new times. */
  overrides: OccurrenceOverride[];
}

export interface OccurrenceOverride {
  /** The start the rule gives this occurrence (its RECURRENCE-ID). */
  occurrence: Date;
  from: Date;
  until: Date;
  /** null: the series' reason. */
  reason: string | null;
}

/** One occurrence: its original start (its identity), and when it really runs. */
export interface Occurrence {
  occurrence: Date;
  from: Date;
  until: Date;
  reason: string | null;
}

/** What a series needs to expand: its first occurrence and its rule. */
export interface SeriesShape {
  from: Date;
  until: Date;
  cancelledAt: Date | null;
  recurrence: Recurrence;
}

const DAY_MS = 86_400_000;
/** Chained occurrences (each starting before the last one ends) followed at most this far. */
const MAX_CHAIN = 100;
export const MAX_RRULE_LENGTH = 300;
/** A series scheduled today is checked this far for "does it ever occur" (a weekday cycle). */
const CHECK_YEARS = 28;

const ALLOWED_PARTS = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'WKST']);
const FREQUENCIES: Record<string, Frequency> = {
  DAILY: Frequency.DAILY,
  WEEKLY: Frequency.WEEKLY,
  MONTHLY: Frequency.MONTHLY,
  YEARLY: Frequency.YEARLY,
};
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

function bad(message: string): DomainError {
  return DomainError.invalid('rrule', message);
}

function intList(name: string, value: string, min: number, max: number, allowNegative: boolean): number[] {
  return value.split(',').map((part) => {
    if (!/^[+-]?\d{1,3}$/.test(part)) throw bad(`${name} takes integers, got "${part}"`);
    const n = Number(part);
    const abs = Math.abs(n);
    if (abs < min || abs > max || (n < 0 && !allowNegative)) throw bad(`${name} value ${part} is out of range`);
    return n;
  });
}

/**
 * The subset of RFC 5545 §3.3.10 a maintenance series may use, checked strictly before rrule sees
 * it (rrule's own parser is lenient: an unknown weekday or a negative interval reaches its
 * iterator, which then loops). The time of day is the series' start: no BYHOUR/BYMINUTE, and
 * nothing more frequent than daily.
 */
function checkRuleText(text: string): Record<string, string> {
  if (text.length === 0) throw bad('must be an RRULE value such as FREQ=WEEKLY;BYDAY=SA');
  if (text.length > MAX_RRULE_LENGTH) throw bad(`must be at most ${MAX_RRULE_LENGTH} characters`);
  const parts: Record<string, string> = {};
  for (const part of text.toUpperCase().split(';')) {
    const match = /^([A-Z]+)=([A-Z0-9,+-]+)$/.exec(part);
    if (!match) throw bad(`"${part}" is not NAME=VALUE`);
    const [, name, value] = match;
    if (!ALLOWED_PARTS.has(name)) throw bad(`${name} is not supported (allowed: ${[...ALLOWED_PARTS].join(', ')})`);
    if (name in parts) throw bad(`${name} is given twice`);
    parts[name] = value;
  }
  if (!parts.FREQ) throw bad('FREQ is required');
  if (!(parts.FREQ in FREQUENCIES)) throw bad(`FREQ must be one of ${Object.keys(FREQUENCIES).join(', ')}`);
  if (parts.COUNT && parts.UNTIL) throw bad('COUNT and UNTIL cannot both be given');
  for (const name of ['INTERVAL', 'COUNT']) {
    if (parts[name] && intList(name, parts[name], 1, 999, false).length !== 1) throw bad(`${name} takes one integer`);
  }
  if (parts.UNTIL && !/^\d{8}(T\d{6}Z?)?$/.test(parts.UNTIL)) throw bad('UNTIL must be a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSSZ)');
  if (parts.BYMONTH) intList('BYMONTH', parts.BYMONTH, 1, 12, false);
  if (parts.BYMONTHDAY) intList('BYMONTHDAY', parts.BYMONTHDAY, 1, 31, true);
  const periodic = parts.FREQ === 'MONTHLY' || parts.FREQ === 'YEARLY';
  if (parts.BYSETPOS) {
    if (!periodic) throw bad('BYSETPOS is supported with FREQ=MONTHLY or YEARLY only');
    intList('BYSETPOS', parts.BYSETPOS, 1, 366, true);
  }
  if (parts.WKST && !WEEKDAYS.includes(parts.WKST)) throw bad(`WKST must be one of ${WEEKDAYS.join(', ')}`);
  if (parts.BYDAY) {
    for (const day of parts.BYDAY.split(',')) {
      const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(day);
      if (!m || !WEEKDAYS.includes(m[2])) throw bad(`BYDAY value "${day}" is not a weekday such as SA or 1MO`);
      if (m[1] !== undefined) {
        if (!periodic) throw bad('a numbered BYDAY (1MO, -1FR) needs FREQ=MONTHLY or YEARLY');
        const n = Math.abs(Number(m[1]));
        if (n < 1 || n > (parts.FREQ === 'MONTHLY' ? 5 : 53)) throw bad(`BYDAY value "${day}" is out of range`);
      }
    }
  }
  return parts;
}

/** The day filters alone (month, day of month, plain weekday): true when some day within CHECK_YEARS passes them all. */
function someDayMatches(parts: Record<string, string>, fromWall: number): boolean {
  const months = parts.BYMONTH ? parts.BYMONTH.split(',').map(Number) : null;
  const monthDays = parts.BYMONTHDAY ? parts.BYMONTHDAY.split(',').map(Number) : null;
  const plainDays = parts.BYDAY
    ? parts.BYDAY.split(',')
        .filter((d) => /^[A-Z]{2}$/.test(d))
        .map((d) => (WEEKDAYS.indexOf(d) + 1) % 7)
    : [];
  const weekdays = plainDays.length > 0 && plainDays.length === (parts.BYDAY ?? '').split(',').length ? plainDays : null;
  for (let t = fromWall, end = fromWall + CHECK_YEARS * 366 * DAY_MS; t < end; t += DAY_MS) {
    const d = new Date(t);
    if (months && !months.includes(d.getUTCMonth() + 1)) continue;
    if (weekdays && !weekdays.includes(d.getUTCDay())) continue;
    if (monthDays) {
      const length = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      const day = d.getUTCDate();
      if (!monthDays.some((n) => (n > 0 ? n === day : length + n + 1 === day))) continue;
    }
    return true;
  }
  return false;
}

function checkTimeZone(timeZone: unknown): string {
  // The name is kept as Intl spells it ("europe/berlin" → "Europe/Berlin").
  return new Intl.DateTimeFormat('en-US', { timeZone: validTimeZone(timeZone) }).resolvedOptions().timeZone;
}

/** rrule's iterator on floating dates: DTSTART is the series' first start read in the zone. */
function ruleOf(rrule: string, timeZone: string, from: Date): RRule {
  const options: Partial<Options> = RRule.parseString(rrule.toUpperCase());
  // noCache: rrule's own cache keeps every between/after answer in an array that only grows, and
  // the snapshot asks with a new range every MAINTENANCE_CACHE_MS.
  return new RRule({ ...options, dtstart: new Date(localWallMs(from, timeZone)), tzid: null }, true);
}

const rules = new Map<string, RRule>();
const MAX_CACHED_RULES = 1_000;

function cachedRule(series: SeriesShape): RRule {
  const key = `${series.recurrence.rrule}|${series.recurrence.timeZone}|${series.from.toISOString()}`;
  let rule = rules.get(key);
  if (!rule) {
    if (rules.size >= MAX_CACHED_RULES) rules.clear();
    rule = ruleOf(series.recurrence.rrule, series.recurrence.timeZone, series.from);
    rules.set(key, rule);
  }
  return rule;
}

/**
 * Checks a series' rule and zone against its first occurrence (400 naming `rrule` or
 * `timeZone`): the rule must be the supported subset, ever occur, and have `from` as its first
 * occurrence (RFC 5545 leaves a DTSTART that is not an occurrence undefined), and its occurrences
 * must not overlap (each one starts after the one before has ended).
 */
export function checkRecurrence(rrule: unknown, timeZone: unknown, from: Date, until: Date): { rrule: string; timeZone: string } {
  if (typeof rrule !== 'string') throw bad('must be an RRULE value such as FREQ=WEEKLY;BYDAY=SA');
  const text = rrule.trim().replace(/^RRULE:/i, '');
  const parts = checkRuleText(text);
  const zone = checkTimeZone(timeZone);
  const fromWall = localWallMs(from, zone);
  if (!someDayMatches(parts, fromWall)) throw bad('the rule never occurs');
  const rule = ruleOf(text, zone, from);
  const first = rule.after(new Date(fromWall - 1), true);
  if (!first || first.getTime() !== fromWall) {
    throw DomainError.invalid('from', `must be the first occurrence of the rule (${text}) in ${zone}`);
  }
  const next = rule.after(new Date(fromWall), false);
  if (next && instantOfLocalWall(next.getTime(), zone).getTime() < until.getTime()) {
    throw bad('occurrences overlap: the window is longer than the time between two starts');
  }
  return { rrule: text.toUpperCase(), timeZone: zone };
}

export function sameInstant(a: Date, b: Date): boolean {
  return a.getTime() === b.getTime();
}

/** The rule's own occurrence starts (instants) whose start lies in [start, end]. */
function ruleStarts(series: SeriesShape, start: number, end: number): Date[] {
  const zone = series.recurrence.timeZone;
  // Wall-clock bounds a day wider than the instants (no zone is more than 14 h off UTC).
  const walls = cachedRule(series).between(new Date(start - DAY_MS), new Date(end + DAY_MS), true);
  return walls.map((w) => instantOfLocalWall(w.getTime(), zone)).filter((t) => t.getTime() >= start && t.getTime() <= end);
}

/** True when `occurrence` is a start the rule gives (skipped or not, before the series ended or not). */
export function isRuleOccurrence(series: SeriesShape, occurrence: Date): boolean {
  const t = occurrence.getTime();
  return ruleStarts(series, t, t).length > 0;
}

/**
 * The occurrences of a series that overlap [start, end) — skipped ones left out, changed ones as
 * changed, none starting at or after the series' end or cancellation (one in force at a
 * cancellation ends there) — then those that follow without a gap (for "back at", D20), sorted
 * by start. Pure: the instants are arguments.
 */
export function occurrencesBetween(series: SeriesShape, start: Date, end: Date): Occurrence[] {
  const rec = series.recurrence;
  const duration = series.until.getTime() - series.from.getTime();
  const stop = Math.min(rec.endedAt?.getTime() ?? Infinity, series.cancelledAt?.getTime() ?? Infinity);
  const isSkipped = (o: Date) => rec.skipped.some((s) => sameInstant(s, o));
  const overrideOf = (o: Date) => rec.overrides.find((v) => sameInstant(v.occurrence, o));

  const collect = (from: number, to: number): Occurrence[] => {
    const found: Occurrence[] = [];
    // Rule occurrences that may overlap [from, to): started at most one duration before it.
    for (const o of ruleStarts(series, from - duration, to)) {
      if (o.getTime() >= stop || isSkipped(o) || overrideOf(o)) continue;
      found.push({ occurrence: o, from: o, until: new Date(o.getTime() + duration), reason: null });
    }
    for (const v of rec.overrides) {
      if (v.occurrence.getTime() >= stop || isSkipped(v.occurrence)) continue;
      found.push({ occurrence: v.occurrence, from: v.from, until: v.until, reason: v.reason });
    }
    return found
      .filter((o) => o.from.getTime() < stop || series.cancelledAt === null)
      .map((o) =>
        series.cancelledAt && o.until.getTime() > series.cancelledAt.getTime()
          ? { ...o, until: new Date(Math.max(series.cancelledAt.getTime(), o.from.getTime())) }
          : o,
      )
      .filter((o) => o.until.getTime() > from && o.from.getTime() < to && o.until.getTime() > o.from.getTime());
  };

  const result = collect(start.getTime(), end.getTime()).sort((a, b) => a.from.getTime() - b.from.getTime());
  // Follow the chain past `end`: an occurrence that starts no later than the last one ends.
  let reach = Math.max(end.getTime(), ...result.map((o) => o.until.getTime()));
  for (let i = 0; i < MAX_CHAIN && result.some((o) => o.until.getTime() >= end.getTime()); i++) {
    const next = collect(reach, reach + 1).filter((o) => !result.some((r) => sameInstant(r.occurrence, o.occurrence)));
    if (next.length === 0) break;
    result.push(...next);
    reach = Math.max(reach, ...next.map((o) => o.until.getTime()));
  }
  return result.sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * The first occurrence (after skips, changes and the end) that has not ended at `now`, or null:
 * looked for in the coming 400 days, then (a rare rule) along the rule's later starts.
 */
export function nextOccurrence(series: SeriesShape, now: Date): Occurrence | null {
  const found = occurrencesBetween(series, now, new Date(now.getTime() + 400 * DAY_MS));
  if (found.length > 0) return found[0];
  const rule = cachedRule(series);
  let wall: Date | null = new Date(localWallMs(now, series.recurrence.timeZone));
  for (let i = 0; i < MAX_CHAIN && wall; i++) {
    wall = rule.after(wall, false);
    if (!wall) return null;
    const start = instantOfLocalWall(wall.getTime(), series.recurrence.timeZone);
    const later = occurrencesBetween(series, start, new Date(start.getTime() + 1));
    if (later.length > 0) return later[0];
  }
  return null;
}

/** "20261205T170000Z": an occurrence's original start as RECURRENCE-ID and in ids. */
export function occurrenceKey(occurrence: Date): string {
  return occurrence
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}
