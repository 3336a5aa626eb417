/**
 * D10b bookkeeping for one document, as the flush sends it (P42): hit counts per cooldown entry
 * to add, and instants that only move forward.
 */
export interface BookkeepingWrite {
  /** The document's `_id` (D3a). */
  id: string;
  hits: readonly { errorSignature: string; userId: string | null; count: number; lastTriggeredAt: Date }[];
  lastFailureAt: Date | null;
}

/** One flush: an id of its own (sent again unchanged after a lost reply) and its documents. */
export interface BookkeepingFlush {
  flushId: string;
  writes: readonly BookkeepingWrite[];
  /**
   * Sent before and its outcome unknown (P99): only then may a document already hold this flush
   * id, so only then does the filter need the flush-id guard.
   */
  resent: boolean;
}

/**
 * How many flush ids a document remembers. A retry must find its id still there: one instance
 * resends its unconfirmed flush before any other of its own, so only other instances' flushes
 * that touch the same document in between push it out (32 = one other instance flushing it every
 * 250 ms for 8 s). ~20 bytes each.
 */
export const APPLIED_FLUSH_IDS = 32;

/**
 * The update of one document for one flush (P42): applied only if the document has not seen
 * this flush id (so a flush resent after a lost reply is not counted twice), the id remembered
 * in the same atomic update. A flush id is new on its first sending, so no document can hold it
 * yet: the first sending filters by `_id` alone and only a resent flush carries the guard (P99 —
 * on mongo-java-server a filter with any field besides `_id` scans the collection, P98). Only the bookkeeping fields are touched ($inc/$max/$push): fields
 * other writers keep on the document stay as they are. Entries gone meanwhile (sweep, cap, admin)
 * match no array filter and are left alone; a deleted document matches nothing (no upsert), so
 * bookkeeping never recreates one. `version` moves, so a concurrent version-guarded write
 * (D3, another instance) reads again instead of overwriting the counts; `updatedAt` does not
 * (bookkeeping is no change of health, D13).
 */
export function bookkeepingUpdate(write: BookkeepingWrite, flushId: string, resent: boolean) {
  const inc: Record<string, number> = { version: 1 };
  const max: Record<string, Date> = {};
  const arrayFilters: Record<string, string | null>[] = [];
  for (const hit of write.hits) {
    if (hit.count <= 0) continue;
    const c = `c${arrayFilters.length}`;
    inc[`cooldowns.$[${c}].hits`] = hit.count;
    max[`cooldowns.$[${c}].lastTriggeredAt`] = hit.lastTriggeredAt;
    arrayFilters.push({ [`${c}.errorSignature`]: hit.errorSignature, [`${c}.userId`]: hit.userId });
  }
  if (write.lastFailureAt) max.lastFailureAt = write.lastFailureAt;
  const update: Record<string, unknown> = {
    $inc: inc,
    $push: { appliedFlushIds: { $each: [flushId], $slice: -APPLIED_FLUSH_IDS } },
  };
  if (Object.keys(max).length > 0) update.$max = max;
  return {
    filter: resent ? { _id: write.id, appliedFlushIds: { $ne: flushId } } : { _id: write.id },
    update,
    ...(arrayFilters.length > 0 ? { arrayFilters } : {}),
  };
}
