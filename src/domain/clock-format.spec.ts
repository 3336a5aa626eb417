import { assertTimeZone, formatClock } from './clock-format';
import { DomainError, DomainErrorCode } from './domain-error';

const d = (iso: string) => new Date(iso);

describe('formatClock', () => {
  it.each([
    // [zone, instant, now, expected]
    ['UTC', '2026-05-23T14:00:00Z', '2026-05-23T14:30:00Z', '14:00'],
    ['UTC', '2026-05-23T00:00:00Z', '2026-05-23T23:59:00Z', '00:00'],
    ['UTC', '2026-05-24T14:30:00Z', '2026-05-23T20:00:00Z', '2026-05-24 14:30'],
    ['UTC', '2026-05-22T23:59:00Z', '2026-05-23T00:00:00Z', '2026-05-22 23:59'],
    ['Europe/Berlin', '2026-05-23T12:00:00Z', '2026-05-23T13:00:00Z', '14:00'],
    // 22:30 UTC is already tomorrow in Berlin (CEST, +2): same UTC day, different local day.
    ['Europe/Berlin', '2026-05-23T22:30:00Z', '2026-05-23T12:00:00Z', '2026-05-24 00:30'],
    ['Europe/Berlin', '2026-05-23T22:00:00Z', '2026-05-23T23:00:00Z', '00:00'],
    // 02:00 UTC is still yesterday in New York (EDT, -4): same UTC day, different local day.
    ['America/New_York', '2026-05-23T02:00:00Z', '2026-05-23T14:00:00Z', '2026-05-22 22:00'],
    // Different UTC days, same New York day.
    ['America/New_York', '2026-05-22T23:30:00Z', '2026-05-23T03:00:00Z', '19:30'],
    ['America/New_York', '2026-01-15T05:00:00Z', '2026-01-15T20:00:00Z', '00:00'],
  ])('%s: %s seen at %s → %s', (zone, instant, now, expected) => {
    expect(formatClock(d(instant), d(now), zone)).toBe(expected);
  });

  describe('daylight saving changes (Europe/Berlin)', () => {
    it.each([
      // Spring forward 2026-03-29: 02:00 CET jumps to 03:00 CEST at 01:00 UTC.
      ['2026-03-29T00:59:00Z', '2026-03-29T12:00:00Z', '01:59'],
      ['2026-03-29T01:00:00Z', '2026-03-29T12:00:00Z', '03:00'],
      // After the change, the local day ends at 22:00 UTC, not 23:00.
      ['2026-03-29T21:59:00Z', '2026-03-29T12:00:00Z', '23:59'],
      ['2026-03-29T22:00:00Z', '2026-03-29T12:00:00Z', '2026-03-30 00:00'],
      // Before the change, the local day started at 23:00 UTC the day before.
      ['2026-03-28T23:00:00Z', '2026-03-29T12:00:00Z', '00:00'],
      // Fall back 2026-10-25: 03:00 CEST goes back to 02:00 CET at 01:00 UTC; 02:30 happens twice.
      // The repeated hour carries its offset (issue 16, P78), so the two 02:30 differ.
      ['2026-10-25T00:30:00Z', '2026-10-25T12:00:00Z', '02:30 (UTC+2)'],
      ['2026-10-25T01:30:00Z', '2026-10-25T12:00:00Z', '02:30 (UTC+1)'],
      ['2026-10-25T22:59:00Z', '2026-10-25T12:00:00Z', '23:59'],
      ['2026-10-25T23:00:00Z', '2026-10-25T12:00:00Z', '2026-10-26 00:00'],
      ['2026-10-24T22:00:00Z', '2026-10-25T12:00:00Z', '00:00'],
    ])('%s seen at %s → %s', (instant, now, expected) => {
      expect(formatClock(d(instant), d(now), 'Europe/Berlin')).toBe(expected);
    });
  });

  it('gives the same answer from its cached formatter on a second call', () => {
    const first = formatClock(d('2026-05-23T14:00:00Z'), d('2026-05-23T15:00:00Z'), 'Asia/Kolkata');
    const second = formatClock(d('2026-05-23T14:00:00Z'), d('2026-05-23T15:00:00Z'), 'Asia/Kolkata');
    expect(first).toBe('19:30');
    expect(second).toBe('19:30');
  });

  it('rejects an unknown zone with a DomainError on timeZone', () => {
    expect(() => formatClock(d('2026-05-23T14:00:00Z'), d('2026-05-23T14:00:00Z'), 'Mars/Olympus_Mons')).toThrow(DomainError);
  });

  it('rejects an invalid instant', () => {
    expect(() => formatClock(new Date(NaN), d('2026-05-23T14:00:00Z'), 'UTC')).toThrow(DomainError);
  });
});

describe('assertTimeZone', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'])('accepts %s', (zone) => {
    expect(() => assertTimeZone(zone)).not.toThrow();
  });

  it.each(['Mars/Olympus_Mons', 'Europe/Berlinn', '', '   ', '+25:00'])('rejects %j', (zone) => {
    let caught: unknown;
    try {
      assertTimeZone(zone);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect((caught as DomainError).code).toBe(DomainErrorCode.INVALID_ARGUMENT);
    expect((caught as DomainError).field).toBe('timeZone');
  });
});
