/**
 * The pace of the event relay's sweep, which looks at every tool_health document by `_id`
 * for events whose pending marker a crash lost (P97) (P114). Arithmetic only: no clock, no database.
 */

/** The most ids one sweep read may ask for: one `$in` of them stays a short command (P81: ~7 µs an id). */
export const MAX_SWEEP_SLICE = 1_000;

/** How many ids the sweep checks per relay tick: `idsPerSecond` over one poll interval, at least one. */
export function sweepSlice(idsPerSecond: number, pollMs: number): number {
  return Math.max(1, Math.round((idsPerSecond * pollMs) / 1000));
}

/** A new sweep starts when none has run on this lease holder yet, or `everyMs` after the last one started. */
export function sweepDue(nowMs: number, lastStartMs: number | null, everyMs: number): boolean {
  return lastStartMs === null || nowMs - lastStartMs >= everyMs;
}

/** How long one sweep over `ids` document ids takes at that pace: one slice per tick. */
export function sweepDurationMs(ids: number, idsPerSecond: number, pollMs: number): number {
  return Math.max(1, Math.ceil(ids / sweepSlice(idsPerSecond, pollMs))) * pollMs;
}

/**
 * The longest an event waits when a crash lost its document's marker: the marker may be lost
 * just after the running sweep passed the document; the next sweep starts once that one has
 * ended and `everyMs` has passed since it started, and reaches the document at worst at its end.
 * Ticks that run late (a slow database) stretch it by as much.
 */
export function lostMarkerDelayMs(ids: number, idsPerSecond: number, pollMs: number, everyMs: number): number {
  const sweep = sweepDurationMs(ids, idsPerSecond, pollMs);
  return Math.max(everyMs, sweep) + sweep;
}
