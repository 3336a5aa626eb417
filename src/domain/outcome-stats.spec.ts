import { ToolErrorCode } from './tool-error-code';
import {
  LATENCY_BUCKET_COUNT,
  MAX_DURATION_MS,
  OutcomeTally,
  addRecord,
  bucketLower,
  bucketOf,
  bucketUpper,
  emptyTally,
  judgedCalls,
  mergeTallies,
  percentileBucket,
  subtractTally,
  successRate,
} from './outcome-stats';

function tallyOf(durations: number[], failures = 0): OutcomeTally {
  const t = emptyTally();
  for (const d of durations) addRecord(t, { ok: true, durationMs: d });
  for (let i = 0; i < failures; i++) addRecord(t, { ok: false, code: ToolErrorCode.BACKEND_FAILED });
  return t;
}

describe('latency buckets', () => {
  it('put every duration between its bucket bounds, from 0 to the longest a report may carry', () => {
    for (const d of [0, 0.4, 1, 1.41, 1.42, 2, 3, 999, 1000, 1024, 9000, 65_536, MAX_DURATION_MS]) {
      const i = bucketOf(d);
      expect(d).toBeGreaterThanOrEqual(bucketLower(i));
      expect(d).toBeLessThan(i === 0 ? 1 : bucketUpper(i));
    }
    expect(bucketOf(MAX_DURATION_MS)).toBe(LATENCY_BUCKET_COUNT - 1);
    expect(bucketOf(MAX_DURATION_MS * 10)).toBe(LATENCY_BUCKET_COUNT - 1);
  });

  it('span a factor of √2 each, so a percentile read off them is within one bucket of the exact one', () => {
    expect(bucketUpper(20) / bucketLower(20)).toBeCloseTo(Math.SQRT2, 10);
    expect(bucketOf(bucketUpper(20))).toBe(21);
  });
});

describe('tallies', () => {
  it('count successes, failures by code and the durations carried; merge by adding', () => {
    const a = tallyOf([10, 20]);
    addRecord(a, { ok: false, code: ToolErrorCode.NOT_REGISTERED });
    const b = tallyOf([30], 2);
    const sum = mergeTallies([a, b]);
    expect(sum).toMatchObject({ ok: 3, fail: 3, timed: 3, sumMs: 60, codes: { BACKEND_FAILED: 2, NOT_REGISTERED: 1 } });
    // NOT_REGISTERED is not the tool's fault: no evidence against it.
    expect(judgedCalls(sum)).toBe(5);
    expect(successRate(sum)).toBeCloseTo(3 / 5);
  });

  it('subtract a part from a whole without going below zero', () => {
    const whole = tallyOf([10, 10, 1000], 4);
    const part = tallyOf([1000], 1);
    const rest = subtractTally(whole, part);
    expect(rest).toMatchObject({ ok: 2, fail: 3, timed: 2, codes: { BACKEND_FAILED: 3 } });
    expect(subtractTally(part, whole)).toMatchObject({ ok: 0, fail: 0, timed: 0 });
  });

  it('give percentiles by nearest rank', () => {
    const t = tallyOf([...Array(94).fill(100), ...Array(6).fill(5000)]);
    expect(percentileBucket(t, 0.5)).toBe(bucketOf(100));
    expect(percentileBucket(t, 0.94)).toBe(bucketOf(100));
    expect(percentileBucket(t, 0.95)).toBe(bucketOf(5000));
    expect(percentileBucket(emptyTally(), 0.95)).toBeNull();
  });
});
