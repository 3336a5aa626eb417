import { DomainError } from './domain-error';
import { ambiguityNote, formatUtcOffset, isAmbiguousLocalTime, utcOffsetMinutes } from './local-time';

const d = (iso: string) => new Date(iso);

describe('utcOffsetMinutes', () => {
  it.each([
    ['UTC', '2026-07-01T12:00:00Z', 0],
    ['Europe/Berlin', '2026-07-01T12:00:00Z', 120],
    ['Europe/Berlin', '2026-01-15T12:00:00Z', 60],
    ['America/New_York', '2026-01-15T12:00:00Z', -300],
    ['Asia/Kolkata', '2026-01-15T12:00:00Z', 330],
    // Fall back in Berlin at 01:00 UTC on 2026-10-25.
    ['Europe/Berlin', '2026-10-25T00:59:59Z', 120],
    ['Europe/Berlin', '2026-10-25T01:00:00Z', 60],
  ])('%s at %s → %i', (zone, instant, expected) => {
    expect(utcOffsetMinutes(d(instant), zone)).toBe(expected);
  });

  it('refuses an unknown zone with a DomainError on timeZone', () => {
    expect(() => utcOffsetMinutes(d('2026-07-01T12:00:00Z'), 'Mars/Olympus_Mons')).toThrow(DomainError);
  });
});

describe('isAmbiguousLocalTime', () => {
  it.each([
    // Berlin, autumn 2026-10-25: 02:00–02:59 local happens twice (CEST, then CET).
    ['Europe/Berlin', '2026-10-24T23:59:00Z', false], // 01:59 CEST, once
    ['Europe/Berlin', '2026-10-25T00:00:00Z', true], // 02:00 CEST
    ['Europe/Berlin', '2026-10-25T00:30:00Z', true], // 02:30 CEST
    ['Europe/Berlin', '2026-10-25T01:30:00Z', true], // 02:30 CET
    ['Europe/Berlin', '2026-10-25T01:59:00Z', true], // 02:59 CET
    ['Europe/Berlin', '2026-10-25T02:00:00Z', false], // 03:00 CET, once
    // Spring 2026-03-29: the skipped hour has no twin; the hours around it happen once.
    ['Europe/Berlin', '2026-03-29T00:30:00Z', false],
    ['Europe/Berlin', '2026-03-29T01:30:00Z', false],
    // New York falls back 2026-11-01 at 06:00 UTC: 01:30 happens at 05:30 and 06:30 UTC.
    ['America/New_York', '2026-11-01T05:30:00Z', true],
    ['America/New_York', '2026-11-01T06:30:00Z', true],
    ['America/New_York', '2026-11-01T07:30:00Z', false],
    ['UTC', '2026-10-25T01:30:00Z', false],
    ['Asia/Kolkata', '2026-10-25T01:30:00Z', false],
  ])('%s at %s → %s', (zone, instant, expected) => {
    expect(isAmbiguousLocalTime(d(instant), zone)).toBe(expected);
  });
});

describe('formatUtcOffset and ambiguityNote', () => {
  it.each([
    [0, 'UTC+0'],
    [60, 'UTC+1'],
    [120, 'UTC+2'],
    [-300, 'UTC-5'],
    [330, 'UTC+5:30'],
    [-210, 'UTC-3:30'],
  ])('%i → %s', (minutes, expected) => {
    expect(formatUtcOffset(minutes)).toBe(expected);
  });

  it('names the offset only for a repeated wall time', () => {
    expect(ambiguityNote(d('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe(' (UTC+2)');
    expect(ambiguityNote(d('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe(' (UTC+1)');
    expect(ambiguityNote(d('2026-10-25T03:30:00Z'), 'Europe/Berlin')).toBe('');
  });
});
