import { describe, expect, it } from '@jest/globals';
import { instantOfWall, isZone, wallOf } from './zone';

describe('wall times in a zone (the schedule form)', () => {
  it('reads a wall time at the offset in force then: winter and summer in Berlin', () => {
    expect(instantOfWall('2026-03-21T18:00', 'Europe/Berlin').toISOString()).toBe('2026-03-21T17:00:00.000Z');
    expect(instantOfWall('2026-07-04T18:00', 'Europe/Berlin').toISOString()).toBe('2026-07-04T16:00:00.000Z');
    expect(instantOfWall('2026-07-04T18:00', 'America/New_York').toISOString()).toBe('2026-07-04T22:00:00.000Z');
    expect(instantOfWall('2026-07-04T18:00', 'UTC').toISOString()).toBe('2026-07-04T18:00:00.000Z');
  });

  it('reads a skipped wall time with the offset before the change, a repeated one as its first instant', () => {
    // Berlin 2026-03-29: 02:00 → 03:00; 2026-10-25: 03:00 → 02:00.
    expect(instantOfWall('2026-03-29T02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(instantOfWall('2026-10-25T02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(instantOfWall('2026-03-29T03:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('gives back the wall time of an instant, the inverse away from a change', () => {
    for (const zone of ['Europe/Berlin', 'Asia/Kolkata', 'America/Los_Angeles', 'Pacific/Chatham']) {
      for (const wall of ['2026-01-15T09:45', '2026-06-30T23:59', '2026-12-31T00:00']) {
        expect(wallOf(instantOfWall(wall, zone), zone)).toBe(wall);
      }
    }
  });

  it('knows a zone from a typo', () => {
    expect(isZone('Europe/Berlin')).toBe(true);
    expect(isZone('Europe/Berlinn')).toBe(false);
  });
});
