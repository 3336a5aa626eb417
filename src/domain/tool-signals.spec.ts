import { ToolErrorCode } from './tool-error-code';
import { OutcomeTally, addRecord, emptyTally } from './outcome-stats';
import { DEFAULT_SIGNAL_SETTINGS, evaluateSignals, roughDuration, signalChanges, signalText, percent } from './tool-signals';

const MIN = DEFAULT_SIGNAL_SETTINGS.minCalls;

function calls(ok: number, failed: number, durationMs: number | null = null, code = ToolErrorCode.BACKEND_FAILED): OutcomeTally {
  const t = emptyTally();
  for (let i = 0; i < ok; i++) addRecord(t, { ok: true, durationMs });
  for (let i = 0; i < failed; i++) addRecord(t, { ok: false, code, durationMs });
  return t;
}

describe('failing often', () => {
  const usual = calls(98, 2); // 98 %

  it('starts when the recent success rate is well below the usual one, with enough calls', () => {
    const signals = evaluateSignals({ recent: calls(12, 8), usual }); // 60 % of 20
    expect(signals.failingOften).toEqual({ recentCalls: 20, recentSuccesses: 12, recentSuccessRate: 0.6, usualSuccessRate: 0.98 });
    expect(signals.slow).toBeNull();
  });

  it('needs the minimum number of calls in the recent period and in the usual one', () => {
    expect(evaluateSignals({ recent: calls(0, MIN - 1), usual }).failingOften).toBeNull();
    expect(evaluateSignals({ recent: calls(0, MIN), usual }).failingOften).not.toBeNull();
    expect(evaluateSignals({ recent: calls(0, MIN), usual: calls(MIN - 1, 0) }).failingOften).toBeNull();
  });

  it('starts at the drop threshold exactly and not just above it', () => {
    // usual 100 %, recent 80 %: a drop of 0.2 = the threshold.
    expect(evaluateSignals({ recent: calls(16, 4), usual: calls(100, 0) }).failingOften).not.toBeNull();
    expect(evaluateSignals({ recent: calls(17, 3), usual: calls(100, 0) }).failingOften).toBeNull();
  });

  it('recovers only once the rate is back within the gentler bound (no flicker around the line)', () => {
    const usual100 = calls(100, 0);
    const on = evaluateSignals({ recent: calls(14, 6), usual: usual100 });
    expect(on.failingOften).not.toBeNull();
    // 85 %: would not start, but stays on (drop 0.15 > 0.1).
    expect(evaluateSignals({ recent: calls(17, 3), usual: usual100, previous: on }).failingOften).not.toBeNull();
    // 90 %: drop 0.1 — recovered.
    expect(evaluateSignals({ recent: calls(18, 2), usual: usual100, previous: on }).failingOften).toBeNull();
    // Too few calls: no evidence, the signal ends.
    expect(evaluateSignals({ recent: calls(0, MIN - 1), usual: usual100, previous: on }).failingOften).toBeNull();
  });

  it('counts only failures that are the tool’s fault', () => {
    expect(evaluateSignals({ recent: calls(10, 30, null, ToolErrorCode.DISALLOWED), usual }).failingOften).toBeNull();
  });
});

describe('slow', () => {
  const usual = calls(100, 0, 1000);

  it('starts when the recent p95 is several times the usual p95 and clearly longer', () => {
    const signals = evaluateSignals({ recent: calls(MIN, 0, 9000), usual });
    expect(signals.slow).toMatchObject({ recentCalls: MIN });
    expect(signals.slow!.recentP95Ms).toBeGreaterThan(signals.slow!.usualP95Ms * 3);
  });

  it('ignores a tiny tool getting a few ms slower, and calls without a duration', () => {
    expect(evaluateSignals({ recent: calls(MIN, 0, 40), usual: calls(100, 0, 5) }).slow).toBeNull();
    expect(evaluateSignals({ recent: calls(MIN, 0, null), usual }).slow).toBeNull();
    expect(evaluateSignals({ recent: calls(MIN - 1, 0, 9000), usual }).slow).toBeNull();
  });

  it('recovers below twice the usual p95', () => {
    const on = evaluateSignals({ recent: calls(MIN, 0, 9000), usual });
    expect(evaluateSignals({ recent: calls(MIN, 0, 2500), usual, previous: on }).slow).not.toBeNull();
    expect(evaluateSignals({ recent: calls(MIN, 0, 2500), usual }).slow).toBeNull();
    expect(evaluateSignals({ recent: calls(MIN, 0, 1200), usual, previous: on }).slow).toBeNull();
  });
});

describe('signal text', () => {
  it('reads as the LLM is told it', () => {
    const signals = evaluateSignals({ recent: calls(12, 8, 9000), usual: calls(98, 2, 1000) });
    expect(signalText(signals)).toBe(
      'failing often right now — 12 of the last 20 calls worked, usually 98 %; slow right now — about 10 s per call, usually about 900 ms',
    );
    expect(signalText(evaluateSignals({ recent: calls(20, 0, 1000), usual: calls(98, 2, 1000) }))).toBeNull();
  });

  it('rounds durations and rates as a person would say them', () => {
    expect(roughDuration(0.5)).toBe('about 1 ms');
    expect(roughDuration(340)).toBe('about 300 ms');
    expect(roughDuration(9000)).toBe('about 9 s');
    expect(roughDuration(120_000)).toBe('about 2 min');
    expect(percent(0.98)).toBe('98 %');
    expect(percent(0.9975)).toBe('99.7 %');
    expect(percent(1)).toBe('100 %');
  });

  it('tells each start and end once', () => {
    const on = evaluateSignals({ recent: calls(0, 30, 9000), usual: calls(100, 0, 1000) });
    expect(signalChanges(null, on)).toEqual([
      { signal: 'FAILING_OFTEN', started: true },
      { signal: 'SLOW', started: true },
    ]);
    expect(signalChanges(on, on)).toEqual([]);
    expect(signalChanges(on, { failingOften: null, slow: on.slow })).toEqual([{ signal: 'FAILING_OFTEN', started: false }]);
  });
});
