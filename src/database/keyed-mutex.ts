/**
 * Serialises async work per key inside one process (D3): two writes to one document never
 * interleave here, so retries are only needed against other instances.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /**
   * `work` holding the locks of all `keys` at once. Taken in sorted order; only one caller at a
   * time holds several (the bookkeeping flush is serialised), so no two can deadlock.
   */
  runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const acquire = (i: number): Promise<T> => (i === sorted.length ? work() : this.run(sorted[i], () => acquire(i + 1)));
    return acquire(0);
  }
}
