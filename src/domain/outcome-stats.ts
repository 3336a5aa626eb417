import { ToolErrorCode, isToolFault } from './tool-error-code';

/**
 * Outcome statistics (issue 39): how a tool's calls have been going, counted per tool (and
 * per tenant) per minute, hour and day. Evidence only: nothing here decides a status.
 *
 * Latencies go into a histogram on FIXED logarithmic buckets, the same on every instance, so two
 * instances' counts are merged by adding them bucket by bucket (a `$inc` per bucket in the store)
 * and a percentile read off the merged counts is exact to within one bucket: each bucket spans a
 * factor of √2 (about 41 %), from 1 ms up to the longest duration a report may carry.
 */

/** The longest duration a report may carry (1 h): a call that long is an outlier, not a latency. */
export const MAX_DURATION_MS = 3_600_000;

/** Bucket 0 holds [0, 1) ms; bucket i ≥ 1 holds [2^((i-1)/2), 2^(i/2)) ms. */
export const LATENCY_BUCKET_COUNT = bucketOf(MAX_DURATION_MS) + 1;

/** The bucket a duration falls in; durations are clamped to [0, MAX_DURATION_MS]. */
export function bucketOf(durationMs: number): number {
  if (!(durationMs >= 1)) return 0;
  const d = durationMs > MAX_DURATION_MS ? MAX_DURATION_MS : durationMs;
  let i = Math.floor(2 * Math.log2(d)) + 1;
  // Math.log2 of an exact power of √2 may land a hair below the integer: check the bounds.
  if (d < bucketLower(i)) i--;
  else if (d >= bucketUpper(i)) i++;
  return i;
}

export function bucketLower(i: number): number {
  return i <= 0 ? 0 : Math.pow(2, (i - 1) / 2);
}

export function bucketUpper(i: number): number {
  return Math.pow(2, i / 2);
}

/** What a bucket stands for when a percentile falls in it: the geometric middle (bucket 0: 0.5 ms). */
export function bucketValue(i: number): number {
  return i <= 0 ? 0.5 : Math.pow(2, (i - 0.5) / 2);
}

/**
 * One key's counts over one period (a minute, an hour, a day; one instance's interval or the
 * sum of every instance's). `hist[i]` counts the calls that carried a duration in bucket i.
 */
export interface OutcomeTally {
  ok: number;
  fail: number;
  /** Failures by dispatch code. */
  codes: Partial<Record<ToolErrorCode, number>>;
  /** Calls that carried a duration (the histogram's total). */
  timed: number;
  /** Sum of the durations carried, ms (for the mean). */
  sumMs: number;
  /** Sparse: bucket index → count. */
  hist: Record<number, number>;
}

export function emptyTally(): OutcomeTally {
  return { ok: 0, fail: 0, codes: {}, timed: 0, sumMs: 0, hist: {} };
}

export interface OutcomeRecord {
  ok: boolean;
  /** The failure's dispatch code; ignored for a success. */
  code?: ToolErrorCode;
  durationMs?: number | null;
}

/** Adds one report to a tally (in place: the accumulator's hot path). */
export function addRecord(tally: OutcomeTally, record: OutcomeRecord): void {
  if (record.ok) tally.ok++;
  else {
    tally.fail++;
    if (record.code) tally.codes[record.code] = (tally.codes[record.code] ?? 0) + 1;
  }
  const d = record.durationMs;
  if (d !== undefined && d !== null) {
    const i = bucketOf(d);
    tally.hist[i] = (tally.hist[i] ?? 0) + 1;
    tally.timed++;
    tally.sumMs += d;
  }
}

/** `into` plus `from`, bucket by bucket (in place on `into`, which is returned). */
export function mergeInto(into: OutcomeTally, from: OutcomeTally): OutcomeTally {
  into.ok += from.ok;
  into.fail += from.fail;
  for (const [code, n] of Object.entries(from.codes) as [ToolErrorCode, number][]) into.codes[code] = (into.codes[code] ?? 0) + n;
  into.timed += from.timed;
  into.sumMs += from.sumMs;
  for (const [i, n] of Object.entries(from.hist)) into.hist[Number(i)] = (into.hist[Number(i)] ?? 0) + n;
  return into;
}

export function mergeTallies(tallies: Iterable<OutcomeTally>): OutcomeTally {
  const sum = emptyTally();
  for (const t of tallies) mergeInto(sum, t);
  return sum;
}

/**
 * `whole` less `part` (the usual without the recent minutes); a count never goes below zero (the
 * two may come from reads a moment apart).
 */
export function subtractTally(whole: OutcomeTally, part: OutcomeTally): OutcomeTally {
  const out = emptyTally();
  out.ok = Math.max(0, whole.ok - part.ok);
  out.fail = Math.max(0, whole.fail - part.fail);
  for (const [code, n] of Object.entries(whole.codes) as [ToolErrorCode, number][]) {
    const left = n - (part.codes[code] ?? 0);
    if (left > 0) out.codes[code] = left;
  }
  out.timed = 0;
  for (const [i, n] of Object.entries(whole.hist)) {
    const left = n - (part.hist[Number(i)] ?? 0);
    if (left > 0) {
      out.hist[Number(i)] = left;
      out.timed += left;
    }
  }
  out.sumMs = Math.max(0, whole.sumMs - part.sumMs);
  return out;
}

/**
 * Calls that say something about the tool: successes and failures that were the tool's fault.
 * NOT_REGISTERED and DISALLOWED are counted by code but are no evidence against the tool (§3.1).
 */
export function judgedCalls(t: OutcomeTally): number {
  return t.ok + faultFailures(t);
}

export function faultFailures(t: OutcomeTally): number {
  let n = 0;
  for (const [code, count] of Object.entries(t.codes) as [ToolErrorCode, number][]) if (isToolFault(code)) n += count;
  return n;
}

/** Share of judged calls that worked, 0…1; null without any. */
export function successRate(t: OutcomeTally): number | null {
  const judged = judgedCalls(t);
  return judged === 0 ? null : t.ok / judged;
}

/**
 * The q-quantile (0 < q ≤ 1) of the durations carried, as its bucket's middle value, ms; null
 * with no timed call. Nearest rank: the smallest bucket whose cumulative count reaches q × n.
 */
export function percentile(t: OutcomeTally, q: number): number | null {
  const i = percentileBucket(t, q);
  return i === null ? null : bucketValue(i);
}

export function percentileBucket(t: OutcomeTally, q: number): number | null {
  const total = Object.values(t.hist).reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  const indices = Object.keys(t.hist)
    .map(Number)
    .sort((a, b) => a - b);
  let seen = 0;
  for (const i of indices) {
    seen += t.hist[i];
    if (seen >= rank) return i;
  }
  return indices[indices.length - 1];
}

// ---- periods and bucket documents ---------------------------------------------------------------

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A stored period: an hour document holds its 60 minutes too; a day document its total. */
export enum StatsResolution {
  HOUR = 'h',
  DAY = 'd',
}

export function floorTo(ms: number, periodMs: number): number {
  return Math.floor(ms / periodMs) * periodMs;
}

/**
 * The `_id` of a bucket document: `<h|d>|<tenant or *>|<tool>|<start ms>`. Tool names and tenant
 * ids never contain `|` (the id rule), so the id is unambiguous, and every instance upserts the
 * same document for the same period.
 */
export function statsBucketId(resolution: StatsResolution, toolName: string, tenantId: string | null, startMs: number): string {
  return `${resolution}|${tenantId ?? '*'}|${toolName}|${startMs}`;
}
