import { IdempotencyRecordView } from '../domain/idempotency-key';
import { StoredAnswer } from './idempotency-record.schema';

export interface KeyRecord extends IdempotencyRecordView {
  id: string;
  owner: string;
  answer: StoredAnswer | null;
}

export interface NewClaim {
  id: string;
  caller: string;
  fingerprint: string;
  owner: string;
  lockedUntil: Date;
  expiresAt: Date;
}

/** Port of the Idempotency-Key records (D21); the DI token is this class. */
export abstract class IdempotencyStore {
  /** Inserts an in-flight record; false when one already exists under `id`. */
  abstract insert(claim: NewClaim): Promise<boolean>;
  abstract find(id: string): Promise<KeyRecord | null>;
  /** Replaces the record `previousOwner` held (expired or abandoned) by a new claim; false if someone else did first. */
  abstract takeOver(previousOwner: string, claim: NewClaim): Promise<boolean>;
  /** The request that holds the claim stores its answer; false if it no longer holds it. */
  abstract complete(id: string, owner: string, answer: StoredAnswer): Promise<boolean>;
  /** The request that holds the claim gives the key back (nothing was written). */
  abstract release(id: string, owner: string): Promise<void>;
  /** How many records of `caller` have not expired at `now`. */
  abstract countLive(caller: string, now: Date): Promise<number>;
}
