import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, MongoBulkWriteError } from 'mongodb';
import { Model } from 'mongoose';
import { HealthEvent } from '../domain/health-events';
import { EventPage, HealthEventOutbox } from './health-event.outbox';
import { HealthEventRecord } from './health-event.schema';

function positionOf(event: HealthEvent): string {
  return `${event.at.toISOString()}|${event.id}`;
}

@Injectable()
export class MongoHealthEventOutbox extends HealthEventOutbox {
  private readonly records: Collection<HealthEventRecord>;

  constructor(@InjectModel(HealthEventRecord.name) model: Model<HealthEventRecord>) {
    super();
    this.records = model.collection as unknown as Collection<HealthEventRecord>;
  }

  /** Re-appending an event is a no-op (its id is its identity), so a retried write is harmless. */
  async append(events: readonly HealthEvent[]): Promise<void> {
    if (events.length === 0) return;
    const records = events.map((e) => {
      const { id, ...rest } = e;
      return { ...rest, _id: id, position: positionOf(e) } as unknown as HealthEventRecord;
    });
    try {
      await this.records.insertMany(records, { ordered: false });
    } catch (error) {
      const duplicatesOnly =
        error instanceof MongoBulkWriteError &&
        (Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]).every((w) => w.code === 11000);
      if (!duplicatesOnly) throw error;
    }
  }

  async readAfter(after: string | null, limit: number): Promise<EventPage> {
    const filter = after === null ? {} : { position: { $gt: after } };
    const records = await this.records.find(filter).sort({ position: 1 }).limit(limit).toArray();
    const events = records.map(({ _id, ...rest }) => ({ ...rest, id: _id }) as unknown as HealthEvent & { position: string });
    return { events, endCursor: events.length > 0 ? events[events.length - 1].position : after };
  }
}
