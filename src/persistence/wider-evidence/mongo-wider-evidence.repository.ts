import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AnyBulkWriteOperation, Collection } from 'mongodb';
import { Model } from 'mongoose';
import { BucketAdditions, StoredBucket, WiderEvidenceRepository } from './wider-evidence.repository';
import { WiderEvidenceBucketRecord } from './wider-evidence-bucket.schema';

@Injectable()
export class MongoWiderEvidenceRepository extends WiderEvidenceRepository {
  private readonly records: Collection<WiderEvidenceBucketRecord>;

  constructor(@InjectModel(WiderEvidenceBucketRecord.name) model: Model<WiderEvidenceBucketRecord>) {
    super();
    this.records = model.collection as unknown as Collection<WiderEvidenceBucketRecord>;
  }

  async addToBuckets(additions: readonly BucketAdditions[]): Promise<void> {
    if (additions.length === 0) return;
    const operations: AnyBulkWriteOperation<WiderEvidenceBucketRecord>[] = additions.map((a) => ({
      updateOne: {
        filter: { _id: a.id },
        update: {
          $setOnInsert: {
            toolName: a.key.toolName,
            errorSignature: a.key.errorSignature,
            tenantId: a.key.tenantId,
            start: a.start,
            expiresAt: a.expiresAt,
          },
          $addToSet: { users: { $each: [...a.users] }, projects: { $each: [...a.projects] }, tenants: { $each: [...a.tenants] } },
        },
        upsert: true,
      },
    }));
    await this.records.bulkWrite(operations, { ordered: false });
  }

  // `_id` $in: the `_id` index on MongoDB and mongo-java-server alike (D3a).
  async findBuckets(ids: readonly string[]): Promise<StoredBucket[]> {
    if (ids.length === 0) return [];
    const records = await this.records.find({ _id: { $in: [...ids] } }).toArray();
    return records.map((r) => ({
      id: r._id,
      start: r.start.getTime(),
      users: r.users ?? [],
      projects: r.projects ?? [],
      tenants: r.tenants ?? [],
    }));
  }

  // Served by { expiresAt: 1 }.
  async deleteExpired(before: Date): Promise<number> {
    return (await this.records.deleteMany({ expiresAt: { $lt: before } })).deletedCount;
  }
}
