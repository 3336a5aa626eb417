// What a row's slowest requests waited on, measured in the same slices as its latencies (P365).
//
// At 32 connections on two shared cores every row's p99 sits near 3× its p50, the bare node:http
// baseline's too, so b2 (p99 ≤ 3× p50) reads just over or just under its line from run to run.
// Two things stop the whole flow of answers for milliseconds at a time and can be seen from here:
// - the load generator's own garbage collector: autocannon runs in this process, and while it
//   collects no answer is read, so every request in flight reads slower. Its pauses are known
//   exactly (a `gc` PerformanceObserver on this process's clock), and so is each request's span,
//   so the share of the slowest 1 % that overlapped one is counted, not estimated;
// - the service's garbage collector: its pauses are on another process's clock, so only their
//   number and total are read, from the service's /metrics (prom-client's
//   nodejs_gc_duration_seconds), before and after each slice of the rows that ask for it. Not
//   every row: a scrape also counts the stored documents, which at the large size holds the
//   database for seconds (the first full run that scraped around every slice failed row d).
import { PerformanceObserver, performance } from 'node:perf_hooks';

/** This process's GC pauses from now on, as [start, end] in performance.now() milliseconds. */
export function watchOwnGc() {
  const pauses = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.startTime + e.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    /** Stops watching; the pauses seen, in order of start. */
    stop() {
      for (const e of observer.takeRecords()) pauses.push([e.startTime, e.startTime + e.duration]);
      observer.disconnect();
      return pauses.sort((a, b) => a[0] - b[0]);
    },
  };
}

/** Whether [start, end] overlaps one of `pauses` (sorted by start). */
export function overlapsPause(pauses, start, end) {
  // The pauses of one thread follow each other, so the last one that starts before `end` (found
  // by bisection) decides; a few before it are checked too, in case the observer reports one
  // collection's entries nested.
  let lo = 0;
  let hi = pauses.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pauses[mid][0] < end) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0 && i >= lo - 8; i--) if (pauses[i][1] > start) return true;
  return false;
}

/**
 * Of requests given as parallel arrays of latency and end time (ms): the share of those slower
 * than `threshold` whose span overlapped one of `pauses`, and the same share of all of them.
 */
export function pauseShares(latencies, ends, pauses, threshold) {
  let slow = 0;
  let slowHit = 0;
  let hit = 0;
  for (let i = 0; i < latencies.length; i++) {
    const overlapped = overlapsPause(pauses, ends[i] - latencies[i], ends[i]);
    if (overlapped) hit++;
    if (latencies[i] > threshold) {
      slow++;
      if (overlapped) slowHit++;
    }
  }
  return {
    slowestOverlapped: slow ? slowHit / slow : null,
    allOverlapped: latencies.length ? hit / latencies.length : null,
  };
}

/** The service's minor and major GC totals so far, or null where /metrics has none (the baseline). */
export async function serviceGc(port, key) {
  let text;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { 'x-api-key': key } });
    if (res.status !== 200) return null;
    text = await res.text();
  } catch {
    return null;
  }
  const read = (name, kind) => {
    const m = new RegExp(`^nodejs_gc_duration_seconds_${name}\\{kind="${kind}"\\} (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  };
  if (!/^nodejs_gc_duration_seconds_count/m.test(text)) return null;
  return {
    count: read('count', 'minor') + read('count', 'major'),
    seconds: read('sum', 'minor') + read('sum', 'major'),
  };
}

export const nowMs = () => performance.now();
