import { lostMarkerDelayMs, sweepDue, sweepDurationMs, sweepSlice } from './relay-sweep';

const MIN = 60_000;

describe('the event relay sweep pace (P114)', () => {
  it('checks the rate over one poll interval per tick: 500 ids/s every 200 ms is 100 ids', () => {
    expect(sweepSlice(500, 200)).toBe(100);
    expect(sweepSlice(500, 1000)).toBe(500);
    expect(sweepSlice(1000, 50)).toBe(50);
    expect(sweepSlice(333, 200)).toBe(67);
  });

  it('checks at least one id per tick, however low the rate', () => {
    expect(sweepSlice(1, 200)).toBe(1);
    expect(sweepSlice(2, 10)).toBe(1);
  });

  it('starts the first sweep at once, the next one when the interval has passed since the last start', () => {
    expect(sweepDue(1_000, null, 5 * MIN)).toBe(true);
    expect(sweepDue(1_000 + 5 * MIN - 1, 1_000, 5 * MIN)).toBe(false);
    expect(sweepDue(1_000 + 5 * MIN, 1_000, 5 * MIN)).toBe(true);
  });

  it('takes one tick per slice: 1 000 000 ids at 500 ids/s every 200 ms take 2 000 s', () => {
    expect(sweepDurationMs(1_000_000, 500, 200)).toBe(2_000_000);
    expect(sweepDurationMs(1_001, 500, 200)).toBe(11 * 200);
    expect(sweepDurationMs(0, 500, 200)).toBe(200);
  });

  it('delays an event whose marker was lost by at most one interval (or sweep, if longer) plus one sweep', () => {
    // 100 000 ids: a sweep of 200 s, shorter than the 5-minute interval.
    expect(lostMarkerDelayMs(100_000, 500, 200, 5 * MIN)).toBe(5 * MIN + 200_000);
    // 1 000 000 ids: sweeps of 2 000 s back to back.
    expect(lostMarkerDelayMs(1_000_000, 500, 200, 5 * MIN)).toBe(4_000_000);
    expect(lostMarkerDelayMs(1_000, 500, 200, 5 * MIN)).toBe(5 * MIN + 2_000);
  });
});
