import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Collection } from 'mongodb';
import { Connection, Model } from 'mongoose';
import { HealthEvent } from '../../domain/health-events';
import { DocumentIdWalk } from '../../database/document-id-walk';
import { EventRelayRepository, PendingEvents, RetiredEvents } from './event-relay.repository';
import { RELAY_COMMENT } from './mongo-health-event.outbox';
import { ToolHealthRecord } from '../tool-health/tool-health.schema';
import { ToolPresence } from '../tool-presence/tool-presence';
import { ToolPresenceRecord } from '../tool-presence/tool-presence.schema';

interface LeaseRecord {
  _id: string;
  holder: string;
  until: number;
}
interface CounterRecord {
  _id: string;
  seq: number;
}
interface RetiredRecord {
  _id: string;
  docId: string;
  life: string;
  events: HealthEvent[];
  stagedAt: number;
}

const OUTBOX_COUNTER = 'health_events';
/**
 * Presence lists per round trip of the sweep's cursor (P114). A list names one scope's tools (a
 * few to a few hundred), so a batch lasts the sweep from seconds to a few minutes at its rate,
 * well inside MongoDB's 10-minute timeout of an idle cursor.
 */
const PRESENCE_BATCH = 20;

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number })?.code === 11000;
}

// Every command here carries RELAY_COMMENT: it is background work, not part of any request.
// All filters are built here from ids and numbers; none comes from a client object.
@Injectable()
export class MongoEventRelayRepository extends EventRelayRepository {
  private readonly documents: Collection<ToolHealthRecord>;
  private readonly presence: ToolPresence;

  constructor(
    @InjectModel(ToolHealthRecord.name) model: Model<ToolHealthRecord>,
    @InjectModel(ToolPresenceRecord.name) presenceModel: Model<ToolPresenceRecord>,
    @InjectConnection() private readonly connection: Connection,
  ) {
    super();
    this.documents = model.collection as unknown as Collection<ToolHealthRecord>;
    this.presence = new ToolPresence(() => this.connection.db!.collection<ToolPresenceRecord>(presenceModel.collection.collectionName));
  }

  private get leases(): Collection<LeaseRecord> {
    return this.connection.db!.collection<LeaseRecord>('leases');
  }
  private get counters(): Collection<CounterRecord> {
    return this.connection.db!.collection<CounterRecord>('counters');
  }
  /** `{_id: docId}` for each document that may hold pending events (P97). */
  private get pendingMarkers(): Collection<{ _id: string }> {
    return this.connection.db!.collection<{ _id: string }>('tool_health_pending');
  }
  /** `{_id: docId, until}` for each document that holds (or held) a pin (P97). */
  private get pinMarkers(): Collection<{ _id: string; until: Date }> {
    return this.connection.db!.collection<{ _id: string; until: Date }>('tool_health_pins');
  }
  private get retired(): Collection<RetiredRecord> {
    return this.connection.db!.collection<RetiredRecord>('tool_health_retired');
  }

  async acquireLease(name: string, holder: string, nowMs: number, untilMs: number): Promise<boolean> {
    try {
      // `_id` plus "mine or run out": when another holder's lease runs, nothing matches and the
      // upsert's insert meets the existing _id — a duplicate key, i.e. "not yours".
      const result = await this.leases.updateOne(
        { _id: name, $or: [{ holder }, { until: { $lte: nowMs } }] },
        { $set: { holder, until: untilMs } },
        { upsert: true, comment: RELAY_COMMENT },
      );
      return result.matchedCount + result.upsertedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.leases.deleteOne({ _id: name, holder }, { comment: RELAY_COMMENT });
  }

  async reservePositions(count: number): Promise<number> {
    // One atomic $inc on one document by _id: positions are handed out once each.
    const record = await this.counters.findOneAndUpdate(
      { _id: OUTBOX_COUNTER },
      { $inc: { seq: count } },
      { upsert: true, returnDocument: 'after', comment: RELAY_COMMENT },
    );
    return record!.seq;
  }

  async findPending(limit: number, docIds?: readonly string[]): Promise<PendingEvents[]> {
    // By _id when the caller knows the documents (a write, the sweep of P114), else by the markers
    // (P97): on a server without secondary indexes (mongo-java-server) a filter on pendingEvents
    // scans every document, which at a million documents costs seconds per pass.
    const ids = docIds
      ? [...docIds]
      : (await this.pendingMarkers.find({}, { projection: { _id: 1 }, limit, comment: RELAY_COMMENT }).toArray()).map((m) => m._id);
    if (ids.length === 0) return [];
    // The filter is `_id` alone: mongo-java-server serves a filter from an index only when its
    // fields are exactly the index's, so `_id` plus anything else scans every document (P98).
    const records = await this.documents
      .find({ _id: { $in: ids } }, { projection: { _id: 1, pendingEvents: 1 }, limit, comment: RELAY_COMMENT })
      .toArray();
    const pending = records
      .map((r) => ({ docId: r._id, events: (r.pendingEvents ?? []) as HealthEvent[] }))
      .filter((p) => p.events.length > 0);
    if (!docIds) {
      // Markers whose documents hold nothing pending (relayed by their writer's instance, or gone).
      const live = new Set(pending.map((p) => p.docId));
      const stale = ids.filter((id) => !live.has(id));
      if (stale.length > 0) await this.pendingMarkers.deleteMany({ _id: { $in: stale } }, { comment: RELAY_COMMENT });
    }
    return pending;
  }

  walkDocumentIds(): DocumentIdWalk {
    return this.presence.walkIds({ batchSize: PRESENCE_BATCH, comment: RELAY_COMMENT });
  }

  async markPending(docIds: readonly string[]): Promise<void> {
    if (docIds.length === 1) {
      await this.pendingMarkers.updateOne({ _id: docIds[0] }, { $set: { _id: docIds[0] } }, { upsert: true, comment: RELAY_COMMENT });
    } else if (docIds.length > 1) {
      // A bulk write's documents (P159): their markers in one command.
      const upserts = docIds.map((id) => ({ updateOne: { filter: { _id: id }, update: { $set: { _id: id } }, upsert: true } }));
      await this.pendingMarkers.bulkWrite(upserts, { ordered: false, comment: RELAY_COMMENT });
    }
  }

  async markPinned(docId: string, until: Date): Promise<void> {
    await this.pinMarkers.updateOne({ _id: docId }, { $set: { until } }, { upsert: true, comment: RELAY_COMMENT });
  }

  async dropPinMarker(docId: string, until: Date): Promise<void> {
    await this.pinMarkers.deleteOne({ _id: docId, until: { $lte: until } }, { comment: RELAY_COMMENT });
  }

  async clearPending(relayed: readonly PendingEvents[]): Promise<void> {
    if (relayed.length === 0) return;
    // $pull by id, not $set: events a concurrent write appended meanwhile stay pending. The
    // version is left alone: this is not a change of health, and a writer's guard stays valid.
    // Only the pending list is touched: never a whole-document replace (the bookkeeping flush
    // writes its own fields in parallel).
    await this.documents.bulkWrite(
      relayed.map((p) => ({
        updateOne: { filter: { _id: p.docId }, update: { $pull: { pendingEvents: { id: { $in: p.events.map((e) => e.id) } } } } as never },
      })),
      { ordered: false, comment: RELAY_COMMENT },
    );
  }

  async stageRetired(record: RetiredEvents): Promise<void> {
    const { id, ...rest } = record;
    await this.retired.replaceOne({ _id: id }, rest, { upsert: true });
  }

  async findRetired(limit: number): Promise<RetiredEvents[]> {
    // No index: the collection holds only what the relay has not moved yet (a pass empties it),
    // so the sort reads a handful of records. Natural order is no order at all (P359).
    const records = await this.retired.find({}, { sort: { stagedAt: 1, _id: 1 }, limit, comment: RELAY_COMMENT }).toArray();
    return records.map(({ _id, ...rest }) => ({ ...rest, id: _id }));
  }

  async removeRetired(id: string): Promise<void> {
    await this.retired.deleteOne({ _id: id }, { comment: RELAY_COMMENT });
  }

  async findPinsEndedBy(now: Date, limit: number): Promise<string[]> {
    // The pin markers (P97), a collection as small as the pins ever set; the document itself is
    // read by the caller, which decides whether its pin really ended.
    const markers = await this.pinMarkers
      .find({ until: { $lte: now } }, { projection: { _id: 1 }, sort: { until: 1 }, limit, comment: RELAY_COMMENT })
      .toArray();
    return markers.map((m) => m._id);
  }

  async lifeOf(docId: string): Promise<string | null> {
    const record = await this.documents.findOne({ _id: docId }, { projection: { life: 1 }, comment: RELAY_COMMENT });
    return record ? (record.life ?? '0') : null;
  }
}
