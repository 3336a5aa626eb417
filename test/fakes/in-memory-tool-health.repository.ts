import { DomainError } from '../../src/domain/domain-error';
import { HealthReducer, atNextVersion } from '../../src/domain/health-entry';
import { cascadeScopes, encodeKey, scopePrefix } from '../../src/domain/health-key';
import { HealthEvent } from '../../src/domain/health-events';
import { Scope } from '../../src/domain/scope';
import { CallContext, CascadeEntry, HealthKey, ToolHealthDocument } from '../../src/domain/tool-health-document';
import { ToolStatus } from '../../src/domain/tool-status';
import { KeyedMutex } from '../../src/database/keyed-mutex';
import { APPLIED_FLUSH_IDS, BookkeepingFlush } from '../../src/persistence/tool-health/bookkeeping-update';
import { toCascadeEntry, toDomain, toRecord } from '../../src/persistence/tool-health/tool-health.mapper';
import { MutationResult, ToolHealthRepository } from '../../src/persistence/tool-health/tool-health.repository';
import { InMemoryDatabase, StoredToolHealthRecord, before, copy, later } from './in-memory-database';

/** As MongoToolHealthRepository: a write that keeps losing its version race gives up after this many reads. */
const MAX_ATTEMPTS = 16;

/**
 * ToolHealthRepository in memory, with the Mongo adapter's semantics: documents stored in their
 * record shape through the real mapper (so stored events, P53, and flush ids, P42, round-trip),
 * mutate version-guarded with a retry on a lost race and serialised per key, bookkeeping applied
 * like bookkeepingUpdate ($inc / $max / $push, a resent flush at most once per document), the
 * presence lists kept for the manifest read. Differences: no backoff between retries, no
 * database liveness (see `failNext`), no read coalescing.
 */
export class InMemoryToolHealthRepository extends ToolHealthRepository {
  private readonly mutex = new KeyedMutex();
  private failures: Error[] = [];
  /** How many times the reducer of a mutate ran in total (a retry after a lost race runs it again). */
  reducerRuns = 0;

  constructor(readonly db: InMemoryDatabase = new InMemoryDatabase()) {
    super();
  }

  // ---- test helpers (not part of the port) --------------------------------------------------------

  /**
   * Stores documents as they are (a test's fixture, or another instance's write): the version is
   * kept, the presence list updated. Synchronous, so a reducer can use it to lose a race.
   */
  seed(...docs: ToolHealthDocument[]): void {
    for (const doc of docs) {
      this.db.addPresence(doc);
      this.db.toolHealth.set(doc.id, copy(toRecord(doc)) as StoredToolHealthRecord);
    }
  }

  /** The stored document, a copy; undefined when there is none. */
  stored(id: string): ToolHealthDocument | undefined {
    const record = this.db.toolHealth.get(id);
    return record ? toDomain(copy(record)) : undefined;
  }

  /** The events a document holds for the relay (P53): what its writes committed and nobody relayed yet. */
  pendingEvents(id: string): HealthEvent[] {
    return copy(this.db.toolHealth.get(id)?.pendingEvents ?? []) as HealthEvent[];
  }

  /** The next port calls reject with these errors, in order (e.g. a DomainError UNAVAILABLE). */
  failNext(...errors: Error[]): void {
    this.failures.push(...errors);
  }

  private check(): void {
    const error = this.failures.shift();
    if (error) throw error;
  }

  // ---- the port ---------------------------------------------------------------------------------

  async findById(id: string): Promise<ToolHealthDocument | null> {
    this.check();
    return this.read(id);
  }

  async findManyByIds(ids: readonly string[]): Promise<Map<string, ToolHealthDocument>> {
    this.check();
    const docs = new Map<string, ToolHealthDocument>();
    for (const id of ids) {
      const doc = this.read(id);
      if (doc) docs.set(id, doc);
    }
    return docs;
  }

  async findCascadeEntriesByIds(ids: readonly string[]): Promise<Map<string, CascadeEntry>> {
    this.check();
    const entries = new Map<string, CascadeEntry>();
    for (const id of ids) {
      const record = this.db.toolHealth.get(id);
      if (record) entries.set(id, toCascadeEntry(copy(record)));
    }
    return entries;
  }

  async findManifestEntries(context: CallContext, toolNames: readonly string[], wholeSession: boolean): Promise<Map<string, CascadeEntry>> {
    this.check();
    const prefixes = cascadeScopes(context).map(({ scope, scopeId }) => scopePrefix(scope, scopeId));
    const session = wholeSession && context.sessionId ? scopePrefix(Scope.SESSION, context.sessionId) : null;
    const wanted = new Set(toolNames);
    const entries = new Map<string, CascadeEntry>();
    for (const id of this.db.candidateIds(prefixes, (prefix, tool) => prefix === session || wanted.has(tool))) {
      const record = this.db.toolHealth.get(id);
      if (record) entries.set(id, toCascadeEntry(copy(record)));
    }
    return entries;
  }

  mutate(key: HealthKey, reducer: HealthReducer): Promise<MutationResult> {
    const id = encodeKey(key);
    return this.mutex.run(id, async () => {
      this.check();
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const current = this.read(id);
        this.reducerRuns++;
        const reduced = reducer(current);
        if (reduced === current || reduced === null) return { before: current, after: current, written: false };
        const after = atNextVersion(reduced, current, id);
        // As the adapter: `after` is the document as written (not read back), so it holds what the reducer gave it.
        if (this.tryWrite(current, after)) return { before: current, after: copy(after), written: true };
      }
      throw DomainError.conflict(`too many concurrent writes to ${id}; retry`);
    });
  }

  /** As the adapter answers it; in memory there is no round trip to save, so one mutate per key. */
  async mutateMany(items: readonly { key: HealthKey; reducer: HealthReducer }[]): Promise<MutationResult[]> {
    const ids = items.map((item) => encodeKey(item.key));
    if (new Set(ids).size !== ids.length) throw new Error('mutateMany: keys must be distinct');
    return Promise.all(items.map((item) => this.mutate(item.key, item.reducer)));
  }

  async applyBookkeeping(flushes: readonly BookkeepingFlush[]): Promise<void> {
    this.check();
    for (const flush of flushes) {
      for (const write of flush.writes) {
        const record = this.db.toolHealth.get(write.id);
        // No upsert: bookkeeping never recreates a deleted document.
        if (!record) continue;
        // P99: only a resent flush carries the flush-id guard.
        if (flush.resent && (record.appliedFlushIds ?? []).includes(flush.flushId)) continue;
        const next = copy(record);
        next.version += 1; // moves the version, so a concurrent guarded replace reads again (P117); updatedAt stays
        for (const hit of write.hits) {
          if (hit.count <= 0) continue;
          // The array filter matches every entry of that (signature, user); entries gone meanwhile match none.
          for (const entry of next.cooldowns ?? []) {
            if (entry.errorSignature !== hit.errorSignature || entry.userId !== hit.userId) continue;
            entry.hits += hit.count;
            entry.lastTriggeredAt = later(entry.lastTriggeredAt, hit.lastTriggeredAt);
          }
        }
        if (write.lastFailureAt) next.lastFailureAt = later(next.lastFailureAt, write.lastFailureAt);
        next.appliedFlushIds = [...(next.appliedFlushIds ?? []), flush.flushId].slice(-APPLIED_FLUSH_IDS);
        this.db.toolHealth.set(write.id, next);
      }
    }
  }

  async findWithCooldownExpiredBefore(cutoff: Date, limit: number): Promise<ToolHealthDocument[]> {
    this.check();
    return [...this.db.toolHealth.values()]
      .filter((r) => (r.cooldowns ?? []).some((c) => before(c.nextSpawnAllowedAt, cutoff)))
      .slice(0, limit)
      .map((r) => toDomain(copy(r)));
  }

  async findDownUncheckedSince(cutoff: Date, limit: number): Promise<ToolHealthDocument[]> {
    this.check();
    return [...this.db.toolHealth.values()]
      .filter((r) => r.status === ToolStatus.DOWN && (r.expectedRecoveryAt ?? null) === null && before(r.lastCheckedAt, cutoff))
      .sort((a, b) => a.lastCheckedAt!.getTime() - b.lastCheckedAt!.getTime())
      .slice(0, limit)
      .map((r) => toDomain(copy(r)));
  }

  // ---- the stored shape ---------------------------------------------------------------------------

  private read(id: string): ToolHealthDocument | null {
    const record = this.db.toolHealth.get(id);
    return record ? toDomain(copy(record)) : null;
  }

  /** False on a lost race: a first insert met an existing document, or the version moved. */
  private tryWrite(current: ToolHealthDocument | null, after: ToolHealthDocument): boolean {
    const record = copy(toRecord(after)) as StoredToolHealthRecord;
    const stored = this.db.toolHealth.get(after.id);
    if (!current) {
      this.db.addPresence(after);
      if (stored) return false; // duplicate key
      this.db.toolHealth.set(after.id, record);
      return true;
    }
    if (!stored || stored.version !== current.version) return false;
    this.db.toolHealth.set(after.id, record);
    return true;
  }
}
