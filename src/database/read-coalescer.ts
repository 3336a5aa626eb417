/**
 * Coalesces the id reads that arrive within one turn of the event loop into ONE query
 * (DataLoader-style): under load, the cascade reads of many concurrent requests — dispatcher
 * reports, lookups, manifest annotations — become one `{_id: {$in: …}}` instead of one round
 * trip each (docs/performance.md). A read is issued after its caller asked (at the end of the
 * current turn, never earlier), so each caller sees data at least as fresh as an immediate read
 * of its own would; a failed query fails every caller of that batch, as their own reads would.
 */
export class ReadCoalescer<R extends { _id: string }> {
  private open: Batch<R> | null = null;

  constructor(
    /** Fetches the records with these (distinct) ids; missing ones are simply absent. */
    private readonly query: (ids: string[]) => Promise<R[]>,
    /** A batch that would exceed this many ids is closed and a new one opened. */
    private readonly maxIds = 2000,
  ) {}

  /** The records with these ids, by id (absent ids are missing from the map). */
  read(ids: readonly string[]): Promise<Map<string, R>> {
    return new Promise((resolve, reject) => {
      let batch = this.open;
      if (!batch || (batch.ids.size > 0 && batch.ids.size + ids.length > this.maxIds)) {
        const fresh: Batch<R> = { ids: new Set(), waiters: [] };
        batch = this.open = fresh;
        setImmediate(() => void this.run(fresh));
      }
      for (const id of ids) batch.ids.add(id);
      batch.waiters.push({ ids, resolve, reject });
    });
  }

  private async run(batch: Batch<R>): Promise<void> {
    if (this.open === batch) this.open = null;
    let records: R[];
    try {
      records = await this.query([...batch.ids]);
    } catch (error) {
      for (const waiter of batch.waiters) waiter.reject(error);
      return;
    }
    const byId = new Map(records.map((r) => [r._id, r]));
    // Alone in its batch (a quiet moment, or a big manifest): the caller asked for every id.
    if (batch.waiters.length === 1) return batch.waiters[0].resolve(byId);
    for (const waiter of batch.waiters) {
      const mine = new Map<string, R>();
      for (const id of waiter.ids) {
        const record = byId.get(id);
        if (record) mine.set(id, record);
      }
      waiter.resolve(mine);
    }
  }
}

interface Batch<R> {
  ids: Set<string>;
  waiters: { ids: readonly string[]; resolve: (records: Map<string, R>) => void; reject: (error: unknown) => void }[];
}
