import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Issue 16 (P79): one minute of distinct users / projects / tenants whose tool-fault failures of
 * one (tool, error signature) were seen, for one tenant or across tenants (tenantId null).
 * `_id` = `tool|signature|tenant-or-*|bucketStartMs` (wider-evidence.ts), so every instance
 * upserts the same document and reads the window's ten by `_id`.
 */
@Schema({ collection: 'wider_evidence_buckets', versionKey: false, timestamps: false })
export class WiderEvidenceBucketRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: String, required: true }) toolName: string;
  @Prop({ type: String, required: true }) errorSignature: string;
  @Prop({ type: String, default: null }) tenantId: string | null;
  @Prop({ type: Date, required: true }) start: Date;
  @Prop({ type: [String], default: [] }) users: string[];
  @Prop({ type: [String], default: [] }) projects: string[];
  @Prop({ type: [String], default: [] }) tenants: string[];
  @Prop({ type: Date, required: true }) expiresAt: Date;
}

export const WiderEvidenceBucketSchema = SchemaFactory.createForClass(WiderEvidenceBucketRecord);

// The cleanup (WiderEvidenceService, once per window): `deleteMany({expiresAt: {$lt: now}})` of
// buckets that slid out of every window. Not a TTL index: FerretDB v1 refuses expireAfterSeconds.
WiderEvidenceBucketSchema.index({ expiresAt: 1 });
