/**
 * Wall times in an IANA zone, for forms: a person schedules "Saturday 18:00 in Europe/Berlin",
 * the API takes instants. The browser's Intl knows every zone's offsets, so no zone data ships.
 */

/** The zone's offset from UTC at `instant`, in ms (east positive). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a `datetime-local` value ("2026-12-12T18:00") names in `timeZone`. A wall time
 * that a DST change skips is read with the offset before the change (as RFC 5545 does: 02:30 on
 * a spring-forward night is 03:30); one it repeats is its first (earlier) instant.
 */
export function instantOfWall(value: string, timeZone: string): Date {
  const wall = Date.parse(`${value}:00Z`);
  const before = offsetAt(wall - 86_400_000, timeZone);
  const first = wall - offsetAt(wall - before, timeZone);
  const earlier = wall - before;
  // The repeated hour: both offsets give the wall time back; the earlier instant is the first.
  const candidates = [earlier, first].filter((t) => t + offsetAt(t, timeZone) === wall).sort((a, b) => a - b);
  return new Date(candidates[0] ?? earlier);
}

/** The `datetime-local` value of `instant` in `timeZone`. */
export function wallOf(instant: Date | string, timeZone: string): string {
  const t = new Date(instant).getTime();
  return new Date(t + offsetAt(t, timeZone)).toISOString().slice(0, 16);
}

/** True when the browser knows the zone. */
export function isZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
