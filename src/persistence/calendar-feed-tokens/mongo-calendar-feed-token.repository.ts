import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { CalendarFeedToken } from '../../domain/calendar-feed-token';
import { CalendarFeedTokenRepository } from './calendar-feed-token.repository';
import { CalendarFeedTokenRecord } from './calendar-feed-token.schema';

function toDomain(record: CalendarFeedTokenRecord): CalendarFeedToken {
  return { id: record._id, label: record.label, tokenHash: record.tokenHash, createdAt: record.createdAt, createdBy: record.createdBy };
}

@Injectable()
export class MongoCalendarFeedTokenRepository extends CalendarFeedTokenRepository {
  constructor(@InjectModel(CalendarFeedTokenRecord.name) private readonly model: Model<CalendarFeedTokenRecord>) {
    super();
  }

  async insert(token: CalendarFeedToken): Promise<void> {
    const record: CalendarFeedTokenRecord = {
      _id: token.id,
      label: token.label,
      tokenHash: token.tokenHash,
      createdAt: token.createdAt,
      createdBy: token.createdBy,
    };
    await this.model.collection.insertOne(record as never);
  }

  async list(): Promise<CalendarFeedToken[]> {
    const records = await this.model.collection.find({}).sort({ createdAt: 1 }).limit(1000).toArray();
    return (records as unknown as CalendarFeedTokenRecord[]).map(toDomain);
  }

  // Served by the unique { tokenHash: 1 } index.
  async findByHash(tokenHash: string): Promise<CalendarFeedToken | null> {
    const record = await this.model.collection.findOne({ tokenHash });
    return record ? toDomain(record as unknown as CalendarFeedTokenRecord) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.model.collection.deleteOne({ _id: id } as never)).deletedCount === 1;
  }
}
