import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection } from 'mongodb';
import { Model } from 'mongoose';
import { withBlanks } from '../../domain/same-keys';
import { WebhookEndpoint, WebhookRetry, endpointBlanks } from '../../domain/webhooks';
import { HeldLease, WebhookEndpointChange, WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointRecord } from './webhook-endpoint.schema';

/** Background commands of the delivery worker carry it (a test counting one request's commands leaves them out). */
export const WEBHOOK_COMMENT = 'webhook-delivery';

/** The stored endpoint as the domain reads it; a field written before it existed reads as its blank (endpointBlanks, the one list). */
function toDomain(record: WebhookEndpointRecord): WebhookEndpoint {
  const { _id, lease: _lease, ...rest } = record;
  return { ...withBlanks(rest, endpointBlanks()), id: _id };
}

/**
 * The driver collection, not the Model: every filter is built here from ids and numbers (an id
 * is a UUID the service drew or a validated path parameter), never from a client object.
 */
@Injectable()
export class MongoWebhookEndpointRepository extends WebhookEndpointRepository {
  private readonly records: Collection<WebhookEndpointRecord>;

  constructor(@InjectModel(WebhookEndpointRecord.name) model: Model<WebhookEndpointRecord>) {
    super();
    this.records = model.collection as unknown as Collection<WebhookEndpointRecord>;
  }

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    const { id, ...rest } = endpoint;
    await this.records.insertOne({ ...rest, _id: id, lease: { holder: null, until: 0, fence: 0 } });
  }

  async findById(id: string): Promise<WebhookEndpoint | null> {
    const record = await this.records.findOne({ _id: id });
    return record ? toDomain(record) : null;
  }

  async list(limit: number): Promise<WebhookEndpoint[]> {
    const records = await this.records.find({}).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray();
    return records.map(toDomain);
  }

  async update(id: string, expectedVersion: number, change: WebhookEndpointChange): Promise<WebhookEndpoint | null> {
    const record = await this.records.findOneAndUpdate(
      { _id: id, version: expectedVersion },
      { $set: change, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    return record ? toDomain(record) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.records.deleteOne({ _id: id })).deletedCount === 1;
  }

  // Served by { enabled: 1 }.
  async findEnabledIds(limit: number): Promise<string[]> {
    const records = await this.records
      .find({ enabled: true }, { projection: { _id: 1 }, comment: WEBHOOK_COMMENT })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return records.map((r) => r._id);
  }

  async acquireLease(id: string, holder: string, nowMs: number, untilMs: number): Promise<HeldLease | null> {
    // Renewal by the holder keeps its fence; a takeover of a lease that ran out draws a new one.
    const renewed = await this.records.findOneAndUpdate(
      { _id: id, enabled: true, 'lease.holder': holder },
      { $set: { 'lease.until': untilMs } },
      { returnDocument: 'after', comment: WEBHOOK_COMMENT },
    );
    const record =
      renewed ??
      (await this.records.findOneAndUpdate(
        { _id: id, enabled: true, 'lease.until': { $lte: nowMs } },
        { $set: { 'lease.holder': holder, 'lease.until': untilMs }, $inc: { 'lease.fence': 1 } },
        { returnDocument: 'after', comment: WEBHOOK_COMMENT },
      ));
    if (!record || record.lease.holder !== holder) return null;
    return { endpoint: toDomain(record), holder, fence: record.lease.fence };
  }

  async renewLease(id: string, holder: string, untilMs: number): Promise<boolean> {
    const result = await this.records.updateOne(
      { _id: id, enabled: true, 'lease.holder': holder },
      { $set: { 'lease.until': untilMs } },
      { comment: WEBHOOK_COMMENT },
    );
    return result.matchedCount === 1;
  }

  async releaseLease(id: string, holder: string): Promise<void> {
    await this.records.updateOne(
      { _id: id, 'lease.holder': holder },
      { $set: { 'lease.holder': null, 'lease.until': 0 } },
      { comment: WEBHOOK_COMMENT },
    );
  }

  async advance(lease: HeldLease, cursor: string | null, retry: WebhookRetry | null): Promise<boolean> {
    const result = await this.records.updateOne(
      { _id: lease.endpoint.id, 'lease.holder': lease.holder, 'lease.fence': lease.fence },
      { $set: { cursor, retry } },
      { comment: WEBHOOK_COMMENT },
    );
    return result.matchedCount === 1;
  }

  async disable(lease: HeldLease, at: Date, reason: string): Promise<boolean> {
    const result = await this.records.updateOne(
      { _id: lease.endpoint.id, 'lease.holder': lease.holder, 'lease.fence': lease.fence },
      {
        $set: {
          enabled: false,
          disabledAt: at,
          disabledReason: reason,
          retry: null,
          updatedAt: at,
          'lease.holder': null,
          'lease.until': 0,
        },
        $inc: { version: 1 },
      },
      { comment: WEBHOOK_COMMENT },
    );
    return result.matchedCount === 1;
  }
}
