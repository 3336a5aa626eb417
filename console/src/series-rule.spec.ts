import { describe, expect, it } from '@jest/globals';
import { buildRule, firstOccurrenceWall, ruleInWords, weekdayOf } from './series-rule';

const FIRST = '2026-12-12'; // a Saturday

describe("the schedule form's rule builder", () => {
  it('builds nothing for a one-off window, and each kind of series with its interval', () => {
    expect(buildRule({ repeats: 'NEVER', interval: 1, days: [], firstDate: FIRST })).toBeNull();
    expect(buildRule({ repeats: 'DAILY', interval: 1, days: [], firstDate: FIRST })).toBe('FREQ=DAILY');
    expect(buildRule({ repeats: 'DAILY', interval: 3, days: [], firstDate: FIRST })).toBe('FREQ=DAILY;INTERVAL=3');
    expect(buildRule({ repeats: 'MONTHLY', interval: 1, days: [], firstDate: '2026-12-05' })).toBe('FREQ=MONTHLY;BYMONTHDAY=5');
  });

  it('orders the chosen weekdays, and takes the first occurrence`s day when none is chosen', () => {
    expect(buildRule({ repeats: 'WEEKLY', interval: 1, days: ['FR', 'MO'], firstDate: FIRST })).toBe('FREQ=WEEKLY;BYDAY=MO,FR');
    expect(buildRule({ repeats: 'WEEKLY', interval: 2, days: [], firstDate: FIRST })).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=SA');
    expect(weekdayOf('2026-12-14')).toBe('MO');
  });

  it('starts a weekly series on the first chosen day on or after the typed date, at the typed hours', () => {
    const typed = { from: '2026-12-12T18:00', until: '2026-12-13T02:00' }; // Saturday evening, into Sunday
    expect(firstOccurrenceWall({ repeats: 'WEEKLY', days: ['MO', 'TH'] }, typed.from, typed.until)).toEqual({
      from: '2026-12-14T18:00',
      until: '2026-12-15T02:00',
    });
    expect(firstOccurrenceWall({ repeats: 'WEEKLY', days: ['SA'] }, typed.from, typed.until)).toEqual(typed);
    expect(firstOccurrenceWall({ repeats: 'WEEKLY', days: [] }, typed.from, typed.until)).toEqual(typed);
    expect(firstOccurrenceWall({ repeats: 'DAILY', days: ['MO'] }, typed.from, typed.until)).toEqual(typed);
  });

  it('says a rule in words at its local times', () => {
    const from = '2026-12-12T17:00:00Z';
    const until = '2026-12-12T19:00:00Z';
    const say = (rrule: string, timeZone = 'Europe/Berlin') => ruleInWords({ recurrence: { rrule, timeZone }, from, until });
    expect(say('FREQ=WEEKLY;BYDAY=SA')).toBe('every Saturday 18:00–20:00 Europe/Berlin');
    expect(say('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR')).toBe('every 2 weeks on Monday, Friday 18:00–20:00 Europe/Berlin');
    expect(say('FREQ=MONTHLY;BYMONTHDAY=12', 'UTC')).toBe('every month on day 12 17:00–19:00 UTC');
    expect(say('FREQ=DAILY;INTERVAL=3', 'Asia/Kolkata')).toBe('every 3 days 22:30–00:30 Asia/Kolkata');
    expect(ruleInWords({ recurrence: null, from, until })).toBe('');
  });
});
