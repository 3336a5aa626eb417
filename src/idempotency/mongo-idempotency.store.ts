import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { IdempotencyState } from '../domain/idempotency-key';
import { IdempotencyRecord, StoredAnswer } from './idempotency-record.schema';
import { IdempotencyStore, KeyRecord, NewClaim } from './idempotency.store';

const DUPLICATE_KEY = 11000;

@Injectable()
export class MongoIdempotencyStore extends IdempotencyStore {
  constructor(@InjectModel(IdempotencyRecord.name) private readonly model: Model<IdempotencyRecord>) {
    super();
  }

  async insert(claim: NewClaim): Promise<boolean> {
    try {
      await this.model.collection.insertOne(this.inFlight(claim) as never);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async find(id: string): Promise<KeyRecord | null> {
    const doc = await this.model.collection.findOne<IdempotencyRecord>({ _id: id as never });
    return doc
      ? {
          id: doc._id,
          owner: doc.owner,
          fingerprint: doc.fingerprint,
          state: doc.state,
          lockedUntil: doc.lockedUntil,
          expiresAt: doc.expiresAt,
          answer: doc.answer ?? null,
        }
      : null;
  }

  async takeOver(previousOwner: string, claim: NewClaim): Promise<boolean> {
    const result = await this.model.collection.replaceOne({ _id: claim.id as never, owner: previousOwner }, this.inFlight(claim));
    return result.modifiedCount === 1;
  }

  async complete(id: string, owner: string, answer: StoredAnswer): Promise<boolean> {
    const result = await this.model.collection.updateOne(
      { _id: id as never, owner, state: IdempotencyState.IN_FLIGHT },
      { $set: { state: IdempotencyState.DONE, answer } },
    );
    return result.modifiedCount === 1;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.model.collection.deleteOne({ _id: id as never, owner, state: IdempotencyState.IN_FLIGHT });
  }

  countLive(caller: string, now: Date): Promise<number> {
    // An in-flight record past its lock still counts until it expires: a cap a crash loop cannot dodge.
    return this.model.collection.countDocuments({ caller, expiresAt: { $gt: now } });
  }

  private inFlight(claim: NewClaim) {
    return {
      _id: claim.id,
      caller: claim.caller,
      fingerprint: claim.fingerprint,
      state: IdempotencyState.IN_FLIGHT,
      owner: claim.owner,
      lockedUntil: claim.lockedUntil,
      expiresAt: claim.expiresAt,
      answer: null,
    };
  }
}
