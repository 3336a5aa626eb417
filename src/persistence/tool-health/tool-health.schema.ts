import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ToolHealthClassification } from '../../domain/classification';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { HealthEvent } from '../../domain/health-events';
import { ToolStatus } from '../../domain/tool-status';

const CLASSIFICATIONS = Object.values(ToolHealthClassification);
const CODES = Object.values(ToolErrorCode);

@Schema({ _id: false, versionKey: false })
export class DiagnosisRecord {
  @Prop({ type: String, enum: CLASSIFICATIONS, default: null }) classification: ToolHealthClassification | null;
  @Prop({ type: String, enum: CODES, default: null }) code: ToolErrorCode | null;
  @Prop({ type: String, default: null }) note: string | null;
  @Prop({ type: String, required: true }) by: string;
  @Prop({ type: Date, required: true }) at: Date;
}
const DiagnosisSchema = SchemaFactory.createForClass(DiagnosisRecord);

@Schema({ _id: false, versionKey: false })
export class HistoryRecord extends DiagnosisRecord {
  @Prop({ type: String, enum: Object.values(ToolStatus), required: true }) status: ToolStatus;
  @Prop({ type: Date, default: null }) recoveryAt: Date | null;
}
const HistorySchema = SchemaFactory.createForClass(HistoryRecord);

@Schema({ _id: false, versionKey: false })
export class CooldownRecord {
  @Prop({ type: String, required: true }) errorSignature: string;
  @Prop({ type: String, default: null }) userId: string | null;
  @Prop({ type: Date, required: true }) nextSpawnAllowedAt: Date;
  @Prop({ type: Number, required: true }) hits: number;
  @Prop({ type: String, enum: CLASSIFICATIONS, required: true }) lastClassification: ToolHealthClassification;
  @Prop({ type: Date, default: null }) lastTriggeredAt: Date | null;
  @Prop({ type: Number, required: true }) windowMs: number;
}
const CooldownSchema = SchemaFactory.createForClass(CooldownRecord);

@Schema({ _id: false, versionKey: false })
export class PinRecord {
  @Prop({ type: String, enum: [ToolStatus.OK, ToolStatus.DOWN], required: true }) status: ToolStatus.OK | ToolStatus.DOWN;
  @Prop({ type: Date, required: true }) until: Date;
  @Prop({ type: String, required: true }) reason: string;
  @Prop({ type: String, required: true }) by: string;
  @Prop({ type: Date, required: true }) at: Date;
}
const PinSchema = SchemaFactory.createForClass(PinRecord);

/** §5 tool_health, with the additive fields of D3b. `_id` is the encoded key (D3a). */
@Schema({ collection: 'tool_health', versionKey: false, timestamps: false })
export class ToolHealthRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: String, enum: Object.values(Scope), required: true }) scope: Scope;
  @Prop({ type: String, default: null }) scopeId: string | null;
  @Prop({ type: String, required: true }) toolName: string;
  @Prop({ type: String, default: null }) tenantId: string | null;

  @Prop({ type: String, enum: Object.values(ToolStatus), required: true }) status: ToolStatus;
  @Prop({ type: Date, required: true }) since: Date;
  @Prop({ type: Date, default: null }) lastCheckedAt: Date | null;
  @Prop({ type: Date, default: null }) expectedRecoveryAt: Date | null;
  @Prop({ type: String, enum: CODES, default: null }) code: ToolErrorCode | null;
  @Prop({ type: Date, default: null }) lastFailureAt: Date | null;

  @Prop({ type: DiagnosisSchema, default: null }) lastDiagnosis: DiagnosisRecord | null;
  @Prop({ type: [HistorySchema], default: [] }) history: HistoryRecord[];
  @Prop({ type: [CooldownSchema], default: [] }) cooldowns: CooldownRecord[];
  @Prop({ type: PinSchema, default: null }) pin: PinRecord | null;
  @Prop({ type: String, default: null }) description: string | null;

  /** New at every creation of the document; part of every event id, so ids never repeat across lives (P54). */
  @Prop({ type: String }) life?: string;
  /** Events of writes not yet moved to the outbox by the event relay, written with the document (P53). */
  @Prop({ type: [Object], default: undefined }) pendingEvents?: HealthEvent[];
  @Prop({ type: Number, required: true }) version: number;
  @Prop({ type: Date, required: true }) createdAt: Date;
  @Prop({ type: Date, required: true }) updatedAt: Date;
}

export const ToolHealthSchema = SchemaFactory.createForClass(ToolHealthRecord);

// The key of §5. Reads go by `_id` (same key, encoded), so this index is the uniqueness
// guarantee and serves admin filters on (scope, scopeId[, toolName]).
ToolHealthSchema.index({ scope: 1, scopeId: 1, toolName: 1 }, { unique: true });
// "List by status" within a scope (§5): the admin list filtered by scope + scopeId + status.
ToolHealthSchema.index({ scope: 1, scopeId: 1, status: 1 });
// Global tool overview: every entry of a tool by status (admin per-tool counts, due-for-probe).
ToolHealthSchema.index({ toolName: 1, status: 1 });
// Sweep: entries whose cooldown expired before now - grace (D9), and "has an active cooldown".
ToolHealthSchema.index({ 'cooldowns.nextSpawnAllowedAt': 1 });
// No index on pendingEvents: the event relay finds pending events by markers and by `_id` (P97,
// P114), and the purge's `{'pendingEvents.0': {$exists: false}}` is one condition among others
// that a sparse index could not answer anyway.
// The pin watch (P55): pins that have run out ({'pin.until': {$lte: now}}).
ToolHealthSchema.index({ 'pin.until': 1 }, { sparse: true });
// The version guard of every replace, `{_id, version}`, has exactly these keys, so
// mongo-java-server (memory and H2) serves it from this index (AbstractUniqueIndex.canHandle
// compares key sets, P98) instead of scanning the collection (P117 (D21)). Unique because `_id` is.
ToolHealthSchema.index({ _id: 1, version: 1 }, { unique: true, name: 'version_guard' });
// Additive (D11): entries "due for a probe" — DOWN, no expected recovery, oldest check first.
ToolHealthSchema.index({ status: 1, expectedRecoveryAt: 1, lastCheckedAt: 1 });
