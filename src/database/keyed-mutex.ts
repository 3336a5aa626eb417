/**
 * Serialises async work per key inside one process (D3): two writes to one document never
 * interleave here, so retries are only needed against other instances.
 *
 * Each key's entry is the promise that settles when the work last queued on it is done (it never
 * rejects). Work takes its keys all at once, in one synchronous step: it waits for the entries it
 * finds and leaves its own in their place. A waiter therefore only ever waits for work queued
 * before it, so several keys taken together cannot deadlock, in whatever order they are given.
 * Taking 200 keys so costs one promise, not a chain of 200 nested ones (P371).
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.runAll([key], work);
  }

  /** `work` holding the locks of all `keys` at once (a key given twice is taken once). */
  async runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const before: Promise<void>[] = [];
    for (const key of keys) {
      const previous = this.tails.get(key);
      if (previous !== undefined && previous !== done) before.push(previous);
      this.tails.set(key, done);
    }
    try {
      if (before.length > 0) await Promise.all(before);
      return await work();
    } finally {
      release();
      for (const key of keys) if (this.tails.get(key) === done) this.tails.delete(key);
    }
  }
}
