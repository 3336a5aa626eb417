import { OutcomeTally, judgedCalls, percentile, successRate } from './outcome-stats';

/**
 * Issue 39: two signals about how a tool is doing right now, each judged against the
 * tool's OWN usual values — a tool that always takes 8 s is not slow at 9 s, one that takes 1 s
 * is. They are evidence shown beside the status (lookup, annotation, failure check, GraphQL, MCP,
 * console, webhooks); they never change a status, which stays with verdicts and system writes.
 *
 * Each signal starts at one threshold and ends at a gentler one (hysteresis), so a rate hovering
 * around the line does not make the signal flicker on and off; and neither starts nor stays on
 * without a minimum number of calls in BOTH periods: a handful of calls proves nothing, and a
 * tool nobody calls any more is not "failing".
 */
export interface SignalSettings {
  /** Calls needed in the recent period and in the usual period (each) before a signal may be on. */
  minCalls: number;
  /** Failing often starts when the recent success rate is this far below the usual one (0…1)… */
  failingDrop: number;
  /** …and ends once it is less than this far below. */
  failingRecover: number;
  /** Slow starts when the recent p95 is at least this many times the usual p95… */
  slowFactor: number;
  /** …and at least this many ms above it (1 ms → 4 ms is no news to anyone)… */
  slowMinExtraMs: number;
  /** …and ends once it is below this many times the usual p95. */
  slowRecoverFactor: number;
}

export const DEFAULT_SIGNAL_SETTINGS: Readonly<SignalSettings> = Object.freeze({
  minCalls: 20,
  failingDrop: 0.2,
  failingRecover: 0.1,
  slowFactor: 3,
  slowMinExtraMs: 500,
  slowRecoverFactor: 2,
});

export interface FailingOftenSignal {
  /** Judged calls (successes and tool-fault failures) in the recent period. */
  recentCalls: number;
  recentSuccesses: number;
  recentSuccessRate: number;
  usualSuccessRate: number;
}

export interface SlowSignal {
  /** Calls that carried a duration in the recent period. */
  recentCalls: number;
  recentP95Ms: number;
  usualP95Ms: number;
}

export interface ToolSignals {
  failingOften: FailingOftenSignal | null;
  slow: SlowSignal | null;
}

export const NO_SIGNALS: ToolSignals = Object.freeze({ failingOften: null, slow: null });

export function hasSignal(signals: ToolSignals | null | undefined): boolean {
  return !!signals && (signals.failingOften !== null || signals.slow !== null);
}

export interface SignalInput {
  /** The last few minutes. */
  recent: OutcomeTally;
  /** The tool's usual: the period before the recent one (e.g. the last 24 hours without it). */
  usual: OutcomeTally;
  /** The signals as they were at the last evaluation (hysteresis); null or absent = none were on. */
  previous?: ToolSignals | null;
  settings?: SignalSettings;
}

export function evaluateSignals(input: SignalInput): ToolSignals {
  const settings = input.settings ?? DEFAULT_SIGNAL_SETTINGS;
  return {
    failingOften: failingOften(input.recent, input.usual, !!input.previous?.failingOften, settings),
    slow: slow(input.recent, input.usual, !!input.previous?.slow, settings),
  };
}

function failingOften(recent: OutcomeTally, usual: OutcomeTally, wasOn: boolean, s: SignalSettings): FailingOftenSignal | null {
  const recentCalls = judgedCalls(recent);
  if (recentCalls < s.minCalls || judgedCalls(usual) < s.minCalls) return null;
  const recentRate = successRate(recent)!;
  const usualRate = successRate(usual)!;
  // Rounded to a millionth: 1 − 0.8 is 0.19999999999999996 in floating point, and 80 % of 100 % is a drop of 0.2.
  const drop = Math.round((usualRate - recentRate) * 1e6) / 1e6;
  const on = wasOn ? drop > s.failingRecover : drop >= s.failingDrop;
  return on ? { recentCalls, recentSuccesses: recent.ok, recentSuccessRate: recentRate, usualSuccessRate: usualRate } : null;
}

function slow(recent: OutcomeTally, usual: OutcomeTally, wasOn: boolean, s: SignalSettings): SlowSignal | null {
  if (recent.timed < s.minCalls || usual.timed < s.minCalls) return null;
  const recentP95 = percentile(recent, 0.95)!;
  const usualP95 = percentile(usual, 0.95)!;
  const on = wasOn
    ? recentP95 >= usualP95 * s.slowRecoverFactor
    : recentP95 >= usualP95 * s.slowFactor && recentP95 - usualP95 >= s.slowMinExtraMs;
  return on ? { recentCalls: recent.timed, recentP95Ms: recentP95, usualP95Ms: usualP95 } : null;
}

/**
 * The words the LLM (and an operator) reads, e.g. "slow right now — about 9 s per call, usually
 * about 1 s"; both signals joined by "; "; null when none is on. The durations are the p95s:
 * what most calls stay under, rounded as a person would say them.
 */
export function signalText(signals: ToolSignals | null | undefined): string | null {
  if (!signals) return null;
  const parts: string[] = [];
  const f = signals.failingOften;
  if (f) {
    parts.push(
      `failing often right now — ${f.recentSuccesses} of the last ${f.recentCalls} calls worked, usually ${percent(f.usualSuccessRate)}`,
    );
  }
  const s = signals.slow;
  if (s) parts.push(`slow right now — ${roughDuration(s.recentP95Ms)} per call, usually ${roughDuration(s.usualP95Ms)}`);
  return parts.length === 0 ? null : parts.join('; ');
}

/** "98 %", "99.5 %" (one decimal only above 99, where whole percents all read alike). */
export function percent(rate: number): string {
  const p = rate * 100;
  if (p > 99 && p < 100) return `${(Math.floor(p * 10) / 10).toString()} %`;
  return `${Math.round(p)} %`;
}

/**
 * "about 300 ms", "about 9 s", "about 2 min": one significant figure below a second, whole seconds
 * below a minute. A percentile read off the histogram is only known to within its bucket (±20 %),
 * so more digits would claim a precision the figure does not have.
 */
export function roughDuration(ms: number): string {
  if (ms < 950) {
    const magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(1, ms))));
    return `about ${Math.max(1, Math.round(ms / magnitude) * magnitude)} ms`;
  }
  if (ms < 59_500) return `about ${Math.max(1, Math.round(ms / 1000))} s`;
  return `about ${Math.round(ms / 60_000)} min`;
}

export enum SignalKind {
  FAILING_OFTEN = 'FAILING_OFTEN',
  SLOW = 'SLOW',
}

/** What a SIGNAL_STARTED or SIGNAL_ENDED event carries: which signal, the figures at the change, in words. */
export interface SignalPayload {
  signal: SignalKind;
  /** The signals on after the change, in words (null when none is left). */
  text: string | null;
  recentCalls: number | null;
  recentSuccessRate: number | null;
  usualSuccessRate: number | null;
  recentP95Ms: number | null;
  usualP95Ms: number | null;
}

/** The payload of a change: the figures of the signal that started, or nulls for one that ended. */
export function signalPayload(signal: SignalKind, after: ToolSignals): SignalPayload {
  const f = signal === SignalKind.FAILING_OFTEN ? after.failingOften : null;
  const s = signal === SignalKind.SLOW ? after.slow : null;
  return {
    signal,
    text: signalText(after),
    recentCalls: f?.recentCalls ?? s?.recentCalls ?? null,
    recentSuccessRate: f?.recentSuccessRate ?? null,
    usualSuccessRate: f?.usualSuccessRate ?? null,
    recentP95Ms: s ? Math.round(s.recentP95Ms) : null,
    usualP95Ms: s ? Math.round(s.usualP95Ms) : null,
  };
}

/** The start and end of each signal between two evaluations: what an event tells (coalesced per change). */
export interface SignalChange {
  signal: SignalKind;
  started: boolean;
}

export function signalChanges(before: ToolSignals | null | undefined, after: ToolSignals): SignalChange[] {
  const changes: SignalChange[] = [];
  const was = before ?? NO_SIGNALS;
  if (!was.failingOften !== !after.failingOften) changes.push({ signal: SignalKind.FAILING_OFTEN, started: !!after.failingOften });
  if (!was.slow !== !after.slow) changes.push({ signal: SignalKind.SLOW, started: !!after.slow });
  return changes;
}
