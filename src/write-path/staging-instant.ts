let last = 0;

/**
 * When a record of events is staged for the relay: wall-clock milliseconds, strictly increasing
 * within this process. The relay moves staged records oldest first, so two records staged one
 * after the other in the same millisecond still keep their order (P359).
 */
export function stagingInstant(): number {
  last = Math.max(Date.now(), last + 1);
  return last;
}
