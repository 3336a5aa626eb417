import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, MongoBulkWriteError } from 'mongodb';
import { Model } from 'mongoose';
import { HealthEvent } from '../../domain/health-events';
import { HealthEventType } from '../../domain/health-events';
import { EventPage, HealthEventOutbox, PositionedEvent } from './health-event.outbox';
import { HealthEventRecord } from './health-event.schema';

/** Marks the relay's own commands, so tests that count a request's commands can leave them out. */
export const RELAY_COMMENT = 'event-relay';

@Injectable()
export class MongoHealthEventOutbox extends HealthEventOutbox {
  private readonly records: Collection<HealthEventRecord>;

  constructor(@InjectModel(HealthEventRecord.name) model: Model<HealthEventRecord>) {
    super();
    this.records = model.collection as unknown as Collection<HealthEventRecord>;
  }

  async insertInOrder(events: readonly PositionedEvent[]): Promise<void> {
    if (events.length === 0) return;
    // An id already there was relayed before (the relay stopped before clearing it): skip it, so
    // it keeps its first position. `_id` $in: the _id index.
    const ids = events.map((e) => e.id);
    const existing = new Set(
      (await this.records.find({ _id: { $in: ids } }, { projection: { _id: 1 }, comment: RELAY_COMMENT }).toArray()).map((r) => r._id),
    );
    const records = events
      .filter((e) => !existing.has(e.id))
      .map((e) => {
        const { id, ...rest } = e;
        return { ...rest, _id: id } as unknown as HealthEventRecord;
      });
    if (records.length === 0) return;
    try {
      // Ordered: a reader never sees a later position before an earlier one of the same batch.
      await this.records.insertMany(records, { ordered: true, comment: RELAY_COMMENT });
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError) || !allDuplicates(error)) throw error;
      // A duplicate here means another relay raced this one (a lease handover): insert the rest.
      // Ordered: everything before the first error went in, nothing after it was tried.
      const rest = records.slice(firstErrorIndex(error) + 1);
      if (rest.length > 0) await this.insertInOrder(rest.map(({ _id, ...r }) => ({ ...r, id: _id }) as unknown as PositionedEvent));
    }
  }

  async readAfter(after: string | null, limit: number): Promise<EventPage> {
    const filter = after === null ? {} : { position: { $gt: after } };
    const records = await this.records.find(filter).sort({ position: 1 }).limit(limit).toArray();
    const events = records.map((record) => fromRecord(record) as HealthEvent & { position: string });
    return { events, endCursor: events.length > 0 ? events[events.length - 1].position : after };
  }

  async readBetween(
    after: string | null,
    before: string | null,
    limit: number,
    backward: boolean,
    docId: string | null = null,
  ): Promise<PositionedEvent[]> {
    const range: { $gt?: string; $lt?: string } = {};
    if (after !== null) range.$gt = after;
    if (before !== null) range.$lt = before;
    const filter: Record<string, unknown> = after === null && before === null ? {} : { position: range };
    if (docId !== null) filter.docId = docId;
    // The { position: 1 } index, read either way; with a document, { docId: 1, position: 1 }.
    const records = await this.records
      .find(filter)
      .sort({ position: backward ? -1 : 1 })
      .limit(limit)
      .toArray();
    return records.map(fromRecord);
  }

  async findById(id: string): Promise<PositionedEvent | null> {
    const record = await this.records.findOne({ _id: id });
    if (!record) return null;
    return fromRecord(record);
  }

  async lastPosition(): Promise<string | null> {
    // The { position: 1 } index, read backwards.
    const [last] = await this.records
      .find({}, { projection: { position: 1 }, comment: RELAY_COMMENT })
      .sort({ position: -1 })
      .limit(1)
      .toArray();
    return last?.position ?? null;
  }
}

function writeErrorsOf(error: MongoBulkWriteError): { code?: number; index: number }[] {
  return (Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]) as unknown as { code?: number; index: number }[];
}

function allDuplicates(error: MongoBulkWriteError): boolean {
  return writeErrorsOf(error).every((w) => w.code === 11000);
}

function firstErrorIndex(error: MongoBulkWriteError): number {
  return Math.min(...writeErrorsOf(error).map((w) => w.index));
}

/**
 * A stored event as the domain reads it. Events written before a field existed get its neutral
 * value here, the one place that reads them: the effective status is the stored one (no pin was
 * known), no tenant, a status change without its reason (P228), a disabled endpoint without its description.
 */
function fromRecord({ _id, ...rest }: HealthEventRecord): PositionedEvent {
  const event = { ...rest, id: _id } as unknown as PositionedEvent;
  event.effectiveStatus ??= event.status;
  event.effective ??= null;
  event.tenantId ??= null;
  if (event.type === HealthEventType.STATUS_CHANGED) {
    event.payload.classification ??= null;
    event.payload.note ??= null;
    event.payload.by ??= null;
  }
  if (event.type === HealthEventType.WEBHOOK_ENDPOINT_DISABLED) event.payload.description ??= null;
  return event;
}
