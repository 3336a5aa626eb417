import { DomainError } from './domain-error';

/**
 * Local wall-clock facts the annotation needs beyond "HH:MM": the zone's UTC offset at an
 * instant, and whether that wall time happens twice (the hour that repeats when daylight saving
 * ends). Issue 16: such a time carries its offset, "expected back at 02:30 (UTC+1)", so an LLM
 * reading it in the repeated hour can tell which 02:30 is meant. Offsets come from Intl (the
 * runtime's tz database); nothing here hard-codes a zone's rules.
 */

const MINUTE_MS = 60_000;
/** Far enough to step across any one transition, near enough never to span two (months apart). */
const PROBE_MS = 6 * 3_600_000;
/** The zone times are written in when a caller names none (the manifest's suffixes, Slack texts). */
export const DEFAULT_TIME_ZONE = 'UTC';

/** The longest zone name a request may carry (the longest IANA names are about 30 characters). */
export const MAX_TIME_ZONE_LENGTH = 100;

/**
 * The one rule for a time zone a caller sends, and its two messages: a name, and one this
 * runtime's tz database knows. Returns the name as sent; throws DomainError INVALID_ARGUMENT
 * naming `field` otherwise.
 */
export function validTimeZone(timeZone: unknown, field = 'timeZone'): string {
  if (typeof timeZone !== 'string' || timeZone.trim() === '' || timeZone.length > MAX_TIME_ZONE_LENGTH) {
    throw DomainError.invalid(field, 'must be an IANA time zone name, e.g. Europe/Berlin');
  }
  zoneFormatter(timeZone, 'second', field);
  return timeZone;
}

/**
 * One formatter per zone and precision: building an Intl.DateTimeFormat costs far more than using
 * one, and the manifest annotation formats once per tool per turn. Case variants of a zone name are
 * all valid and would each get an entry, so the cache is bounded; past the bound it starts over.
 */
const MAX_CACHED_ZONES = 512;
const formatters = new Map<string, Intl.DateTimeFormat>();
const PRECISION: Record<'minute' | 'second', Intl.DateTimeFormatOptions> = {
  // 2-digit parts: the clock is written as read ("09:05").
  minute: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' },
  // Numeric parts to compute with (offsets), to the second.
  second: { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
};

export function zoneFormatter(timeZone: string, precision: 'minute' | 'second', field = 'timeZone'): Intl.DateTimeFormat {
  const key = `${precision}:${timeZone}`;
  let formatter = formatters.get(key);
  if (formatter) return formatter;
  try {
    // h23, not hour12:false: the latter renders midnight as "24" in some ICU versions.
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', ...PRECISION[precision] });
  } catch {
    throw DomainError.invalid(field, `unknown IANA time zone: ${timeZone}`);
  }
  if (formatters.size >= MAX_CACHED_ZONES) formatters.clear();
  formatters.set(key, formatter);
  return formatter;
}

/** The zone's offset from UTC at `instant`, in whole minutes (Europe/Berlin in July: 120). */
export function utcOffsetMinutes(instant: Date, timeZone: string): number {
  const fields: Record<string, number> = {};
  for (const part of zoneFormatter(timeZone, 'second').formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const wall = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((wall - whole) / MINUTE_MS);
}

/**
 * True when the local wall time of `instant` also happens at another instant: near a
 * transition with offsets o (at `instant`) and o', the twin is `instant + (o - o')`, and it is
 * real only if the zone's offset there is o'. Spring's skipped hour has no twin; autumn's
 * repeated hour has one.
 */
export function isAmbiguousLocalTime(instant: Date, timeZone: string): boolean {
  const own = utcOffsetMinutes(instant, timeZone);
  for (const probe of [-PROBE_MS, PROBE_MS]) {
    const other = utcOffsetMinutes(new Date(instant.getTime() + probe), timeZone);
    if (other === own) continue;
    const twin = new Date(instant.getTime() + (own - other) * MINUTE_MS);
    if (utcOffsetMinutes(twin, timeZone) === other) return true;
  }
  return false;
}

/** "UTC+1", "UTC-3", "UTC+5:30", "UTC+0". */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}

/** " (UTC+1)" after a wall time that repeats in `timeZone`, else "". */
export function ambiguityNote(instant: Date, timeZone: string): string {
  return isAmbiguousLocalTime(instant, timeZone) ? ` (${formatUtcOffset(utcOffsetMinutes(instant, timeZone))})` : '';
}

/**
 * The wall clock of `instant` in `timeZone`, as milliseconds of a "floating" UTC
 * date (Saturday 18:00 in Berlin → Date.UTC(…, 18, 0)) (P190). Recurrence rules are expanded on such
 * floating dates, so "every Saturday 18:00" stays 18:00 local whatever the offset.
 */
export function localWallMs(instant: Date, timeZone: string): number {
  return instant.getTime() + utcOffsetMinutes(instant, timeZone) * MINUTE_MS;
}

/**
 * The instant at which the wall clock of `timeZone` reads `wallMs` (a floating date, see
 * localWallMs), as RFC 5545 §3.3.5 reads a local time: a wall time that happens twice (autumn)
 * is its first instant; one that never happens (the spring gap) is read with the offset before
 * the gap (02:30 in Berlin on the last Sunday of March is 03:30 CEST).
 */
export function instantOfLocalWall(wallMs: number, timeZone: string): Date {
  // A first guess within a few hours of the answer, then the offsets well before and after it.
  const guess = wallMs - utcOffsetMinutes(new Date(wallMs), timeZone) * MINUTE_MS;
  const before = utcOffsetMinutes(new Date(guess - PROBE_MS), timeZone);
  const after = utcOffsetMinutes(new Date(guess + PROBE_MS), timeZone);
  const candidates = [wallMs - before * MINUTE_MS, wallMs - after * MINUTE_MS]
    .filter((t) => utcOffsetMinutes(new Date(t), timeZone) * MINUTE_MS === wallMs - t)
    .sort((a, b) => a - b);
  return new Date(candidates.length > 0 ? candidates[0] : wallMs - before * MINUTE_MS);
}
