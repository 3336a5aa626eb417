import { MaintenanceWindow } from '../../domain/maintenance-window';

/**
 * P194: the coming maintenance as an RFC 5545 calendar. Every window and every occurrence of a
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

export function maintenanceCalendar(windows: readonly MaintenanceWindow[], now: Date): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${CALENDAR_UID_DOMAIN}//maintenance windows//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Tool maintenance',
  ];
  for (const w of windows) {
    const where = w.scopeId === null ? w.scope : `${w.scope} ${w.scopeId}`;
    lines.push(
      'BEGIN:VEVENT',
      `UID:${w.id}@${CALENDAR_UID_DOMAIN}`,
      `DTSTAMP:${utc(now)}`,
      `DTSTART:${utc(w.from)}`,
      `DTEND:${utc(w.until)}`,
      `SUMMARY:${text(`${w.toolName} under maintenance (${where})`)}`,
      `DESCRIPTION:${text(w.reason)}`,
      ...(w.seriesId ? [`RELATED-TO:${w.seriesId}@${CALENDAR_UID_DOMAIN}`] : []),
      'STATUS:CONFIRMED',
      'TRANSP:OPAQUE',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
