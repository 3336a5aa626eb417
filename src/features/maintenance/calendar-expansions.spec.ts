import { MaintenanceWindow, expandWindows } from '../../domain/maintenance-window';
import { aMaintenanceWindow } from '../../../test/factories/documents';
import { CalendarExpansions } from './calendar-expansions';
import { calendarText, maintenanceCalendar } from './maintenance-calendar';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BASE = Date.parse('2026-03-20T00:00:00.000Z');

/** The feed as computed before the cache, straight from the stored windows: what the cache must equal. */
function direct(windows: MaintenanceWindow[], now: Date, until: Date, limit: number): string {
  const coming = expandWindows(windows, now, until)
    .filter((w) => w.until.getTime() > now.getTime() && w.from.getTime() < until.getTime())
    .sort((a, b) => a.from.getTime() - b.from.getTime() || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
  return maintenanceCalendar(coming, now);
}

function series(n: number, rrule: string, timeZone: string, hourOffset: number): MaintenanceWindow {
  return aMaintenanceWindow({
    id: `series-${n}`,
    toolName: `tool_${n % 7}`,
    from: new Date(BASE + hourOffset * HOUR),
    until: new Date(BASE + hourOffset * HOUR + 2 * HOUR),
    recurrence: { rrule, timeZone, endedAt: null, skipped: [], overrides: [] },
  });
}

describe('the calendar feed expanded once per window version and day', () => {
  const windows: MaintenanceWindow[] = [
    series(1, 'FREQ=DAILY', 'UTC', 18),
    series(2, 'FREQ=WEEKLY;BYDAY=SA', 'Europe/Berlin', 24 + 17), // 2026-03-21 is a Saturday; DST starts on the 29th
    series(3, 'FREQ=MONTHLY;BYMONTHDAY=20', 'America/New_York', 13),
    aMaintenanceWindow({ id: 'one-off', from: new Date(BASE + 30 * HOUR), until: new Date(BASE + 33 * HOUR) }),
  ];

  it('answers exactly what expanding every window per request answers, at any moment of the day and across days', () => {
    const expansions = new CalendarExpansions(60, 1000);
    for (const offset of [0, 5 * HOUR, 19 * HOUR, 19.5 * HOUR, DAY + HOUR, 9 * DAY + 23 * HOUR, 40 * DAY]) {
      const now = new Date(BASE + offset);
      const until = new Date(now.getTime() + 60 * DAY);
      expect(calendarText(expansions.coming(windows, now, until, 1000), now)).toBe(direct(windows, now, until, 1000));
      expect(calendarText(expansions.coming(windows, now, until, 5), now)).toBe(direct(windows, now, until, 5));
    }
  });

  it('a changed window (a new version) is expanded again; a removed one leaves the cache', () => {
    const expansions = new CalendarExpansions(60, 1000);
    const now = new Date(BASE + HOUR);
    const until = new Date(now.getTime() + 60 * DAY);
    expansions.coming(windows, now, until, 1000);
    const skippedFirst = { ...windows[0], version: 2, recurrence: { ...windows[0].recurrence!, skipped: [new Date(BASE + 18 * HOUR)] } };
    const changed = [skippedFirst, ...windows.slice(1)];
    expect(calendarText(expansions.coming(changed, now, until, 1000), now)).toBe(direct(changed, now, until, 1000));
    expect(calendarText(expansions.coming(changed, now, until, 1000), now)).not.toContain('series-1@20260320T180000Z');
    expect(calendarText(expansions.coming([windows[3]], now, until, 1000), now)).toBe(direct([windows[3]], now, until, 1000));
  });

  it('the same version of a window is not expanded again within a day', () => {
    const expansions = new CalendarExpansions(60, 1000);
    const now = new Date(BASE + HOUR);
    const until = new Date(now.getTime() + 60 * DAY);
    const first = expansions.coming(windows, now, until, 1000);
    const later = expansions.coming(windows, new Date(now.getTime() + HOUR), new Date(until.getTime() + HOUR), 1000);
    expect(later[0]).toBe(first[0]); // the very objects built by the first request
  });
});
