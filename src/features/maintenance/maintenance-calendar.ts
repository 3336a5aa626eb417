import { MaintenanceWindow } from '../../domain/maintenance-window';

/**
 * The coming maintenance as an RFC 5545 calendar (P194). Every window and every occurrence of a
 * series is one VEVENT in UTC (its own UID; RELATED-TO names the series), expanded here rather
 * than sent as RRULE/EXDATE/RECURRENCE-ID: a TZID-bearing rule would need a VTIMEZONE this service
 * would have to derive from Intl, and calendar apps differ in how they apply exceptions; expanded
 * UTC events read the same everywhere and carry exactly the instants the evaluation uses.
 */
export const CALENDAR_UID_DOMAIN = 'tool-availability';

/** RFC 5545 §3.3.11: backslash, semicolon, comma and newlines escaped in TEXT values. */
function text(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n|\r/g, '\\n');
}

/** RFC 5545 §3.3.5 form 2: UTC date-time, "20261205T170000Z". */
function utc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** RFC 5545 §3.1: lines longer than 75 octets are folded (CRLF and one space), never inside a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    const limit = out.length === 0 ? 75 : 74; // a continuation line starts with its space
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** One VEVENT, folded, around its DTSTAMP line: the only part that changes from one request to the next. */
export interface CalendarEvent {
  /** Sort key: the occurrence's start (ms). */
  from: number;
  until: number;
  id: string;
  head: string;
  tail: string;
}

/** A window or occurrence as its VEVENT text, built once per version of its series (P222). */
export function calendarEvent(w: MaintenanceWindow): CalendarEvent {
  const where = w.scopeId === null ? w.scope : `${w.scope} ${w.scopeId}`;
  const head = ['BEGIN:VEVENT', `UID:${w.id}@${CALENDAR_UID_DOMAIN}`];
  const tail = [
    `DTSTART:${utc(w.from)}`,
    `DTEND:${utc(w.until)}`,
    `SUMMARY:${text(`${w.toolName} under maintenance (${where})`)}`,
    `DESCRIPTION:${text(w.reason)}`,
    ...(w.seriesId ? [`RELATED-TO:${w.seriesId}@${CALENDAR_UID_DOMAIN}`] : []),
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
  ];
  return {
    from: w.from.getTime(),
    until: w.until.getTime(),
    id: w.id,
    head: head.map(fold).join('\r\n'),
    tail: tail.map(fold).join('\r\n'),
  };
}

/** The calendar of `events` (already chosen and sorted), stamped `now`. */
export function calendarText(events: readonly CalendarEvent[], now: Date): string {
  const header = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${CALENDAR_UID_DOMAIN}//maintenance windows//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Tool maintenance',
  ].join('\r\n');
  const stamp = `DTSTAMP:${utc(now)}`;
  const parts = [header];
  for (const e of events) parts.push(e.head, stamp, e.tail);
  parts.push('END:VCALENDAR');
  return parts.join('\r\n') + '\r\n';
}

/** The calendar of whole windows (one-off windows and occurrences), in the order given. */
export function maintenanceCalendar(windows: readonly MaintenanceWindow[], now: Date): string {
  return calendarText(windows.map(calendarEvent), now);
}
