import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';

/**
 * Issue 39: one hour or one day of one tool's call outcomes, for one tenant or for everyone
 * (`tenantId` null = GLOBAL). `_id` = `<h|d>|<tenant or *>|<tool>|<start ms>` (statsBucketId).
 * Counts: `ok`, `fail`, `c.<code>` (failures by code), `timed` and `sumMs` (calls that carried a
 * duration), `h.<bucket>` (the latency histogram); an hour document repeats them per minute
 * under `m.<minute>.`. Written only by `$inc` upserts.
 */
@Schema({ collection: 'outcome_stats', versionKey: false, timestamps: false, strict: false })
export class OutcomeStatsRecord {
  @Prop({ type: String, required: true }) _id: string;
  /** "h" or "d". */
  @Prop({ type: String, required: true }) res: string;
  @Prop({ type: String, required: true }) toolName: string;
  @Prop({ type: String, default: null }) tenantId: string | null;
  @Prop({ type: Date, required: true }) start: Date;
  @Prop({ type: Date, required: true }) expiresAt: Date;
  @Prop({ type: Number, default: 0 }) ok: number;
  @Prop({ type: Number, default: 0 }) fail: number;
  @Prop({ type: Number, default: 0 }) timed: number;
  @Prop({ type: Number, default: 0 }) sumMs: number;
  @Prop({ type: MongooseSchema.Types.Mixed, default: undefined }) c?: Record<string, number>;
  @Prop({ type: MongooseSchema.Types.Mixed, default: undefined }) h?: Record<string, number>;
  @Prop({ type: MongooseSchema.Types.Mixed, default: undefined }) m?: Record<string, Record<string, unknown>>;
}

export const OutcomeStatsSchema = SchemaFactory.createForClass(OutcomeStatsRecord);

// The signals' snapshot (findGlobal): every tool's GLOBAL hour documents of the last day,
// `{res, tenantId: null, start: {$gte, $lt}}`.
OutcomeStatsSchema.index({ res: 1, tenantId: 1, start: 1 });
// TTL: the database drops a bucket once its retention has passed (expireAfterSeconds 0 = at
// expiresAt). A server without a TTL monitor (the embedded test server) is swept by deleteExpired.
OutcomeStatsSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
