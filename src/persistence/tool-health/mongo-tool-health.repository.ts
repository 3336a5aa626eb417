import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, MongoBulkWriteError, MongoServerError, UpdateFilter } from 'mongodb';
import { Model } from 'mongoose';
import { DomainError, DomainErrorCode } from '../../domain/domain-error';
import { canonicalJson } from '../../domain/idempotency-key';
import { HealthReducer, atNextVersion } from '../../domain/health-entry';
import { cascadeScopes, encodeKey, scopePrefix } from '../../domain/health-key';
import { Scope } from '../../domain/scope';
import { CallContext, CascadeEntry, HealthKey, ToolHealthDocument } from '../../domain/tool-health-document';
import { ToolStatus } from '../../domain/tool-status';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../database/database-unavailable';
import { BookkeepingFlush, bookkeepingUpdate } from './bookkeeping-update';
import { AppConfig } from '../../config/app-config';
import { DatabaseLiveness } from '../../database/database-liveness';
import { KeyedMutex } from '../../database/keyed-mutex';
import { ReadCoalescer } from '../../database/read-coalescer';
import { findByIds } from '../../database/find-by-ids';
import { updateEach } from '../../database/update-each';
import { CASCADE_ENTRY_FIELDS, CascadeEntryRecord, documentUpdate, toCascadeEntry, toDomain, toRecord } from './tool-health.mapper';
import { MutationResult, ToolHealthRepository } from './tool-health.repository';
import { ToolHealthRecord } from './tool-health.schema';
import { ToolPresence } from '../tool-presence/tool-presence';
import { ManifestRead } from '../tool-presence/manifest-read';
import { ToolPresenceRecord } from '../tool-presence/tool-presence.schema';
import { DocumentStamp, WrittenDocuments } from './written-documents';

/** Another instance wrote the same key between our read and our write: read again. */
const MAX_ATTEMPTS = 16;

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number })?.code === 11000;
}

/**
 * Documents per bulk write of a bookkeeping flush (P113). One bulk write of ~500 documents
 * held back the lookups arriving while mongo-java-server applied it (bench b2, distinct keys in
 * cooldown: p99 4.3–5.5× p50 in one write, 2.4–3.3× in chunks of 50, 2.7–2.8× in chunks of
 * 25). A chunk that fails leaves the flush unconfirmed and resent whole (P42): the chunks
 * already applied skip it by their flush id.
 */
const FLUSH_CHUNK = 25;

/** The stamp read of a write to a document this process knows (written-documents.ts). */
type StampRecord = DocumentStamp & Pick<ToolHealthRecord, '_id'>;
const STAMP_PROJECTION = { version: 1, life: 1, pendingEvents: 1 };
/** What the cascade reads of a document (P116): the read of an event's scope asks for no more (P376). */
const CASCADE_ENTRY_PROJECTION = Object.fromEntries(CASCADE_ENTRY_FIELDS.map((field) => [field, 1]));

@Injectable()
export class MongoToolHealthRepository extends ToolHealthRepository {
  private readonly logger = new Logger('ToolHealthRepository');
  private readonly mutex = new KeyedMutex();
  /** When an operation last failed because the database was unreachable (see mutate). */
  private unavailableAt = 0;
  private readonly records: Collection<ToolHealthRecord>;
  private driverCollection: Collection<ToolHealthRecord> | undefined;
  private readonly presence: ToolPresence;
  /** What a write to a document this process last wrote reads: its stamp, not the document (P354). */
  private readonly written: WrittenDocuments;

  constructor(
    @InjectModel(ToolHealthRecord.name) private readonly model: Model<ToolHealthRecord>,
    @InjectModel(ToolPresenceRecord.name) presenceModel: Model<ToolPresenceRecord>,
    private readonly liveness: DatabaseLiveness,
    config: AppConfig,
  ) {
    super();
    this.written = new WrittenDocuments(config.writtenDocumentsMax);
    this.manifestRead = new ManifestRead<CascadeEntryRecord>(
      async () => model.db.db ?? (await model.db.asPromise()).db!,
      { lists: presenceModel.collection.collectionName, entries: model.collection.collectionName },
      CASCADE_ENTRY_FIELDS,
    );
    this.presence = new ToolPresence(
      () =>
        presenceModel.db.db?.collection<ToolPresenceRecord>(presenceModel.collection.collectionName) ??
        (presenceModel.collection as unknown as Collection<ToolPresenceRecord>),
    );
    this.records = model.collection as unknown as Collection<ToolHealthRecord>;
  }

  /**
   * The driver's own collection for the hot reads. `model.collection` is mongoose's proxy, which
   * adds an ObjectId, two events and its buffering checks to every call (docs/performance.md);
   * the driver's is resolved once the connection is open (before that, the proxy answers).
   */
  private get reader(): Collection<ToolHealthRecord> {
    if (this.driverCollection) return this.driverCollection;
    const db = this.model.db.db;
    if (!db) return this.records;
    return (this.driverCollection = db.collection<ToolHealthRecord>(this.model.collection.collectionName));
  }

  // Point and batch reads go to the driver directly: the filter is built here from encoded
  // ids (never from client objects), and skipping mongoose's query layer keeps the hot path lean.
  // Point reads (the read-before-write of every mutation, the D10b flush of many documents at
  // once) join the same coalesced batches.
  async findById(id: string): Promise<ToolHealthDocument | null> {
    const record = (await this.coalescer.read([id])).get(id);
    return record ? toDomain(record) : null;
  }

  /**
   * Cascade and manifest reads: the ids of every caller in this turn of the event loop go to
   * the database as one `$in` (ReadCoalescer), so concurrent requests share a round trip.
   */
  async findManyByIds(ids: readonly string[]): Promise<Map<string, ToolHealthDocument>> {
    if (ids.length === 0) return new Map();
    const records = await this.coalescer.read(ids);
    const docs = new Map<string, ToolHealthDocument>();
    for (const [id, record] of records) docs.set(id, toDomain(record));
    return docs;
  }

  private readonly coalescer = new ReadCoalescer<ToolHealthRecord>((ids) => findByIds(this.reader, ids));

  async findCascadeEntriesByIds(ids: readonly string[]): Promise<Map<string, CascadeEntry>> {
    const entries = new Map<string, CascadeEntry>();
    if (ids.length === 0) return entries;
    for (const [id, record] of await this.entryCoalescer.read(ids)) entries.set(id, toCascadeEntry(record));
    return entries;
  }

  private readonly entryCoalescer = new ReadCoalescer<CascadeEntryRecord>((ids) =>
    findByIds(this.reader as unknown as Collection<CascadeEntryRecord>, ids, CASCADE_ENTRY_PROJECTION),
  );

  /**
   * The manifest read (P81) as one command (P363), asking only for the fields a CascadeEntry
   * holds (P116): history and cooldowns are most of a document's bytes, and decoding them was
   * most of the driver's work per document (~9 µs of ~600 bytes → ~5 µs projected).
   */
  private readonly manifestRead: ManifestRead<CascadeEntryRecord>;

  async findManifestEntries(context: CallContext, toolNames: readonly string[], wholeSession: boolean): Promise<Map<string, CascadeEntry>> {
    const prefixes = cascadeScopes(context).map(({ scope, scopeId }) => scopePrefix(scope, scopeId));
    const session = wholeSession && context.sessionId ? scopePrefix(Scope.SESSION, context.sessionId) : null;
    const entries = new Map<string, CascadeEntry>();
    for (const record of await this.manifestRead.read({ prefixes, session, wanted: new Set(toolNames) }))
      entries.set(record._id, toCascadeEntry(record));
    return entries;
  }

  mutate(key: HealthKey, reducer: HealthReducer): Promise<MutationResult> {
    const id = encodeKey(key);
    const queuedAt = Date.now();
    return this.mutex.run(id, async () => {
      // Writes to one key queue on the lock; in an outage each would wait out its own server
      // selection, k queued writes k × the timeout. One that queued behind a failure fails at once,
      // and so does one whose request already answered 503 at its deadline (P41).
      if (this.unavailableAt >= queuedAt || this.liveness.abandoned(queuedAt))
        throw new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE);
      try {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
          const before = (await this.readForWrite([id])).get(id) ?? null;
          const reduced = reducer(before);
          if (reduced === before || reduced === null) return { before, after: before, written: false };
          const after = atNextVersion(reduced, before, id);
          if (await this.tryWrite(before, after)) {
            this.written.remember(after);
            return { before, after, written: true };
          }
          this.written.forget(id);
          // Lost a race with another instance: back off a random while, so two instances with
          // queued writes to one key do not lose to each other in lockstep (a 409 after 16 tries).
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(64, 2 ** attempt)));
        }
      } catch (error) {
        if (isDatabaseUnavailable(error)) this.unavailableAt = Date.now();
        throw error;
      }
      throw DomainError.conflict(`too many concurrent writes to ${id}; retry`);
    });
  }

  async mutateMany(items: readonly { key: HealthKey; reducer: HealthReducer }[]): Promise<MutationResult[]> {
    const ids = items.map((item) => encodeKey(item.key));
    if (new Set(ids).size !== ids.length) throw new Error('mutateMany: keys must be distinct');
    const queuedAt = Date.now();
    const results: (MutationResult | null)[] = await this.mutex.runAll(ids, async () => {
      if (this.unavailableAt >= queuedAt || this.liveness.abandoned(queuedAt))
        throw new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE);
      try {
        return await this.writeAll(items, ids);
      } catch (error) {
        if (isDatabaseUnavailable(error)) this.unavailableAt = Date.now();
        throw error;
      }
    });
    // A lost race (rare: another instance wrote one of the keys between our read and our write):
    // that key alone goes through mutate, which reads it again; outside the locks held above.
    return Promise.all(results.map((result, i) => result ?? this.mutate(items[i].key, items[i].reducer)));
  }

  /** One read, the reducers, one bulk write; null for a document whose guarded write lost a race. */
  private async writeAll(items: readonly { key: HealthKey; reducer: HealthReducer }[], ids: string[]): Promise<(MutationResult | null)[]> {
    const stored = await this.readForWrite(ids);
    const results: (MutationResult | null)[] = [];
    const writes: { index: number; before: ToolHealthDocument | null; after: ToolHealthDocument }[] = [];
    items.forEach((item, index) => {
      const before = stored.get(ids[index]) ?? null;
      const reduced = item.reducer(before);
      if (reduced === before || reduced === null) {
        results.push({ before, after: before, written: false });
        return;
      }
      const after = atNextVersion(reduced, before, ids[index]);
      results.push({ before, after, written: true });
      writes.push({ index, before, after });
    });
    if (writes.length === 0) return results;
    const created = writes.filter((w) => w.before === null);
    // Listed before they exist (P81), as one insert would be.
    if (created.length > 0) await this.presence.addMany(created.map((w) => w.after));
    const updates = writes.filter((w) => w.before !== null);
    // One after the other: both at once would save a round trip only for a bulk that creates some
    // documents and updates others, and a failed one would leave the other in flight past the locks.
    const lost = await this.insertFirstVersions(created);
    const matched = await this.updateGuarded(updates);
    for (const i of lost) results[created[i].index] = null;
    if (matched === updates.length) return this.rememberWrites(writes, results);
    // Some guarded update matched nothing, and the server does not say which: read them again.
    const now = await this.coalescer.read(updates.map((w) => w.after.id));
    for (const w of updates) {
      const record = now.get(w.after.id);
      if (!record || !holdsWrite(toDomain(record), w.after)) results[w.index] = null;
    }
    return this.rememberWrites(writes, results);
  }

  /** The first versions of documents, inserted at once; the places of those that met a document created meanwhile (a lost race). */
  private async insertFirstVersions(writes: readonly { after: ToolHealthDocument }[]): Promise<number[]> {
    if (writes.length === 0) return [];
    try {
      await this.records.bulkWrite(
        writes.map((w) => ({ insertOne: { document: toRecord(w.after) } })),
        { ordered: false },
      );
      return [];
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError) || isDatabaseUnavailable(error)) throw error;
      const failed = [error.writeErrors].flat();
      if (failed.some((e) => e.code !== 11000)) throw error;
      return failed.map((e) => e.index);
    }
  }

  /**
   * The guarded updates of documents read before, in one command (P360); how many found their
   * document at the version read. P117 (D21): the same guard as tryWrite, exactly the fields of
   * the `version_guard` index.
   */
  private async updateGuarded(writes: readonly { before: ToolHealthDocument | null; after: ToolHealthDocument }[]): Promise<number> {
    const applied = await updateEach(
      this.reader,
      writes.map(({ before, after }) => ({ q: { _id: after.id, version: before!.version }, u: guardedUpdate(before!, after) })),
    );
    // A guarded update changes only fields a document already has room for: a refusal is the server's fault.
    if (applied.refused.length > 0) throw new MongoServerError({ ...applied.refused[0] });
    return applied.matched;
  }

  /**
   * The documents a write is about to build on, by id (absent: none stored). One it knows from
   * its own last write costs a read of its stamp; the others, and any whose stamp shows another
   * writer since, are read whole, and kept for the next write (P354).
   */
  private async readForWrite(ids: readonly string[]): Promise<Map<string, ToolHealthDocument>> {
    const docs = new Map<string, ToolHealthDocument>();
    const known: string[] = [];
    const unknown: string[] = [];
    for (const id of ids) (this.written.knows(id) ? known : unknown).push(id);
    if (known.length > 0) {
      const stamps = await this.stampCoalescer.read(known);
      for (const id of known) {
        const stamp = stamps.get(id) ?? null;
        const kept = this.written.current(id, stamp);
        if (kept) docs.set(id, kept);
        // Deleted since: there is nothing to read whole.
        else if (stamp !== null) unknown.push(id);
      }
    }
    if (unknown.length === 0) return docs;
    for (const [id, record] of await this.coalescer.read(unknown)) {
      const doc = toDomain(record);
      this.written.remember(doc);
      docs.set(id, doc);
    }
    return docs;
  }

  private readonly stampCoalescer = new ReadCoalescer<StampRecord>((ids) =>
    findByIds(this.reader as unknown as Collection<StampRecord>, ids, STAMP_PROJECTION),
  );

  /** What a bulk write now knows: the documents it wrote as written, and forgets the ones that lost. */
  private rememberWrites(
    writes: readonly { index: number; after: ToolHealthDocument }[],
    results: (MutationResult | null)[],
  ): (MutationResult | null)[] {
    for (const { index, after } of writes) {
      if (results[index]) this.written.remember(after);
      else this.written.forget(after.id);
    }
    return results;
  }

  async applyBookkeeping(flushes: readonly BookkeepingFlush[]): Promise<void> {
    const writes = flushes.flatMap((flush) => flush.writes.map((write) => ({ write, flush })));
    // Their next write reads them whole at once, instead of their stamp and then the document.
    for (const { write } of writes) this.written.forget(write.id);
    // In chunks, one after the other, so reads interleave with a large flush (P113). Each chunk's
    // updates are built just before it is sent: built all at once they lived through the whole
    // flush and were promoted by the scavenges of a failure storm (P370).
    for (let start = 0; start < writes.length; start += FLUSH_CHUNK) {
      const chunk = writes.slice(start, start + FLUSH_CHUNK);
      // Across instances every write is version-guarded and this update moves `version`,
      // so a write built before it reads again instead of overwriting the counts it adds, and
      // these updates ($inc/$max/$push by flush id) commute with each other (P117). Within this process
      // the chunk still holds its documents' locks (D3: writes to one key in one process are
      // serialised), which keeps one instance exact on a server whose guarded write is not
      // atomic (FerretDB, P29).
      await this.mutex.runAll(
        chunk.map(({ write }) => write.id),
        () => this.sendBookkeeping(chunk.map(({ write, flush }) => bookkeepingUpdate(write, flush.flushId, flush.resent))),
      );
    }
  }

  private async sendBookkeeping(updates: ReturnType<typeof bookkeepingUpdate>[]): Promise<void> {
    const applied = await updateEach(
      this.reader,
      updates.map(({ filter, update, ...options }) => ({ q: filter, u: update, ...options })),
    );
    // The database answered and refused some updates (each on its own document): the others
    // are applied, and resending would be refused again.
    const refused = applied.refused;
    if (refused.length > 0)
      this.logger.warn(`bookkeeping: ${refused.length} of ${updates.length} updates refused, dropped: ${refused[0].errmsg}`);
  }

  /** False on a lost race (version moved, or a first insert met an existing document). */
  private async tryWrite(before: ToolHealthDocument | null, after: ToolHealthDocument): Promise<boolean> {
    if (!before) {
      // Listed before it exists (P81): a manifest read never misses a document that is there.
      await this.presence.add(after);
      try {
        await this.records.insertOne(toRecord(after));
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    }
    // Guarded on every server (P117 (D21)). Exactly the fields of the `version_guard` index, so
    // mongo-java-server answers it from that index instead of a scan (P98); a write prepared
    // before a pause finds the version moved and reads again.
    const result = await this.records.updateOne({ _id: after.id, version: before.version }, guardedUpdate(before, after));
    return result.matchedCount === 1;
  }

  async findWithCooldownExpiredBefore(cutoff: Date, limit: number): Promise<ToolHealthDocument[]> {
    const records = await this.records
      .find({ 'cooldowns.nextSpawnAllowedAt': { $lt: cutoff } })
      .limit(limit)
      .toArray();
    return records.map(toDomain);
  }

  async findDownUncheckedSince(cutoff: Date, limit: number): Promise<ToolHealthDocument[]> {
    const records = await this.records
      .find({ status: ToolStatus.DOWN, expectedRecoveryAt: null, lastCheckedAt: { $lt: cutoff } })
      .sort({ lastCheckedAt: 1 })
      .limit(limit)
      .toArray();
    return records.map(toDomain);
  }
}

/**
 * The guarded write of `after` over `before` as read: the fields the reducer changed, the
 * history's new item as a push (P349). Under the `{_id, version}` guard the stored document is
 * the one read, so the server ends with exactly `after`, as a replacement would leave it.
 */
function guardedUpdate(before: ToolHealthDocument, after: ToolHealthDocument): UpdateFilter<ToolHealthRecord> {
  return documentUpdate(before, after) as UpdateFilter<ToolHealthRecord>;
}

/**
 * Whether `stored` (read after a bulk write) holds the write that made `written`: at the same
 * version, exactly it (pending events aside — the relay may already have moved them); at a later
 * version — a flush's counts or another write built on it — its newest history item, which a
 * write that lost the race never stored. A write found in neither way lost, and is redone by
 * `mutate` (P159).
 */
function holdsWrite(stored: ToolHealthDocument, written: ToolHealthDocument): boolean {
  if (stored.version === written.version) {
    const content = (doc: ToolHealthDocument) => canonicalJson({ ...toRecord(doc), pendingEvents: null, life: null });
    return content(stored) === content(written);
  }
  const mine = written.history[written.history.length - 1];
  return (
    stored.version > written.version && mine !== undefined && stored.history.some((item) => canonicalJson(item) === canonicalJson(mine))
  );
}
