import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { IdempotencyState } from '../domain/idempotency-key';

/** The answer a keyed write gave, as sent: replayed byte for byte (D21). */
export class StoredAnswer {
  status: number;
  /** The headers worth sending again (content type, location, retry-after), lower-case names. */
  headers: Record<string, string>;
  /** The body, base64 (any content type, exact bytes). */
  body: string;
}

/**
 * One Idempotency-Key of one caller (D21, P122). `_id` = `<caller>:<key>`, so the database's
 * unique `_id` is what lets exactly one request claim a key, across instances.
 */
@Schema({ collection: 'idempotency_keys', versionKey: false })
export class IdempotencyRecord {
  @Prop({ type: String, required: true }) _id: string;
  /** The API key's configured name: the cap per caller counts by it. */
  @Prop({ type: String, required: true }) caller: string;
  @Prop({ type: String, required: true }) fingerprint: string;
  @Prop({ type: String, required: true, enum: Object.values(IdempotencyState) }) state: IdempotencyState;
  /** Which request holds the claim: completion and release match it, so a late zombie cannot overwrite a take-over. */
  @Prop({ type: String, required: true }) owner: string;
  @Prop({ type: Date, required: true }) lockedUntil: Date;
  @Prop({ type: Date, required: true }) expiresAt: Date;
  @Prop({ type: Object, default: null }) answer: StoredAnswer | null;
}

export const IdempotencyRecordSchema = SchemaFactory.createForClass(IdempotencyRecord);

// TTL: the database removes a key's record once its 24 h are over (expireAfterSeconds 0 = at
// `expiresAt`). It serves storage only: the decision never trusts the monitor's timing (it runs
// about once a minute) and treats a record past `expiresAt` as absent (decideClaim).
IdempotencyRecordSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
// The cap per caller (P122) counts a caller's live records.
IdempotencyRecordSchema.index({ caller: 1, expiresAt: 1 });
