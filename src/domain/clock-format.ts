import { DomainError } from './domain-error';
import { ambiguityNote, validTimeZone, zoneFormatter } from './local-time';

interface LocalParts {
  day: string;
  clock: string;
  /** ambiguityNote of the instant: " (UTC+1)" in a repeated hour, else "". */
  note: string;
}

export { DEFAULT_TIME_ZONE, MAX_TIME_ZONE_LENGTH, validTimeZone } from './local-time';

/** Throws DomainError INVALID_ARGUMENT (field "timeZone") unless `timeZone` is a known IANA zone. */
export function assertTimeZone(timeZone: string): void {
  validTimeZone(timeZone);
}

/**
 * The parts depend only on the zone and the minute, and a turn's manifest formats the same few
 * instants (its `now`, shared `since`s) once per tool: memoised per (zone, minute), bounded like
 * the formatters. Transparent: the same inputs give the same parts — also the ambiguity note,
 * which probes the zone's offset three to five times (a tenth of a 200-tool annotation's CPU
 * when it was computed per tool) and can only change where an offset does, on a minute boundary.
 */
const MAX_CACHED_MINUTES = 4096;
const partsByMinute = new Map<string, LocalParts>();

function localParts(instant: Date, timeZone: string): LocalParts {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) {
    throw DomainError.invalid('instant', 'must be a valid date');
  }
  const key = `${timeZone}|${Math.floor(instant.getTime() / 60_000)}`;
  let parts = partsByMinute.get(key);
  if (parts) return parts;
  parts = { ...formatParts(instant, timeZone), note: ambiguityNote(instant, timeZone) };
  if (partsByMinute.size >= MAX_CACHED_MINUTES) partsByMinute.clear();
  partsByMinute.set(key, parts);
  return parts;
}

function formatParts(instant: Date, timeZone: string): Omit<LocalParts, 'note'> {
  let year = '';
  let month = '';
  let day = '';
  let hour = '';
  let minute = '';
  // Picked by type, so the locale's ordering and separators never matter.
  for (const part of zoneFormatter(timeZone, 'minute').formatToParts(instant)) {
    if (part.type === 'year') year = part.value.padStart(4, '0');
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
    else if (part.type === 'hour') hour = part.value;
    else if (part.type === 'minute') minute = part.value;
  }
  return { day: `${year}-${month}-${day}`, clock: `${hour}:${minute}` };
}

/**
 * "HH:MM" (24 h) in `timeZone` when `instant` falls on the same local calendar day as `now`,
 * else "YYYY-MM-DD HH:MM" (D15): an LLM reading "back at 09:00" late in the evening would
 * otherwise assume this morning.
 */
export function formatClock(instant: Date, now: Date, timeZone: string): string {
  const at = localParts(instant, timeZone);
  const today = localParts(now, timeZone);
  // Issue 16 (P78): a wall time that repeats (autumn's DST hour) carries its UTC offset.
  return (at.day === today.day ? at.clock : `${at.day} ${at.clock}`) + at.note;
}
