import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, Filter } from 'mongodb';
import { Model } from 'mongoose';
import { WebhookDelivery } from '../../domain/webhooks';
import { AttemptRecord, DELIVERY_RETENTION_MS, MAX_ATTEMPTS_KEPT, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDeliveryRecord } from './webhook-delivery.schema';

function toDomain(record: WebhookDeliveryRecord): WebhookDelivery {
  const { _id, expiresAt: _expires, ...rest } = record;
  return { ...rest, id: _id, eventId: rest.eventId ?? null, nextAttemptAt: rest.nextAttemptAt ?? null };
}

/** The driver collection: filters are built here from ids and dates only. */
@Injectable()
export class MongoWebhookDeliveryRepository extends WebhookDeliveryRepository {
  private readonly records: Collection<WebhookDeliveryRecord>;

  constructor(@InjectModel(WebhookDeliveryRecord.name) model: Model<WebhookDeliveryRecord>) {
    super();
    this.records = model.collection as unknown as Collection<WebhookDeliveryRecord>;
  }

  async recordAttempt(r: AttemptRecord): Promise<void> {
    await this.records.updateOne(
      { _id: r.id },
      {
        $setOnInsert: { endpointId: r.endpointId, eventId: r.eventId, eventType: r.eventType, createdAt: r.attempt.at },
        // Retention is housekeeping, in wall-clock time (the attempt's own time is the service clock's).
        $set: {
          state: r.state,
          nextAttemptAt: r.nextAttemptAt,
          updatedAt: r.attempt.at,
          expiresAt: new Date(Date.now() + DELIVERY_RETENTION_MS),
        },
        $push: { attempts: { $each: [r.attempt], $slice: -MAX_ATTEMPTS_KEPT } },
      },
      { upsert: true },
    );
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const record = await this.records.findOne({ _id: id });
    return record ? toDomain(record) : null;
  }

  // Served by { endpointId: 1, createdAt: -1 }.
  async listByEndpoint(endpointId: string, limit: number, before?: Date): Promise<WebhookDelivery[]> {
    const filter: Filter<WebhookDeliveryRecord> = before ? { endpointId, createdAt: { $lt: before } } : { endpointId };
    const records = await this.records.find(filter).sort({ createdAt: -1, _id: 1 }).limit(limit).toArray();
    return records.map(toDomain);
  }

  async deleteByEndpoint(endpointId: string): Promise<void> {
    await this.records.deleteMany({ endpointId });
  }
}
