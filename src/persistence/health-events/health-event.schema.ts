import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { HealthEventType } from '../../domain/health-events';

/** The outbox of D13. `_id` is the idempotent event id `<docId>:<version>:<type>[…]`. */
@Schema({ collection: 'health_events', versionKey: false })
export class HealthEventRecord {
  @Prop({ type: String, required: true }) _id: string;
  /** `<ISO instant>|<_id>`: sorts by time, then id, so a string cursor pages through it. */
  @Prop({ type: String, required: true }) position: string;
  @Prop({ type: String, enum: Object.values(HealthEventType), required: true }) type: HealthEventType;
  @Prop({ type: String, required: true }) docId: string;
  @Prop({ type: String, enum: Object.values(Scope), required: true }) scope: Scope;
  @Prop({ type: String, default: null }) scopeId: string | null;
  @Prop({ type: String, required: true }) toolName: string;
  @Prop({ type: String, enum: Object.values(ToolStatus), required: true }) status: ToolStatus;
  /** Absent on events written before it existed: read as `status` (mongo-health-event.outbox.ts). */
  @Prop({ type: String, enum: Object.values(ToolStatus) }) effectiveStatus?: ToolStatus;
  /** Why the scope reads so (reason, scope, scopeId, until); absent on events written before it existed: read as null. */
  @Prop({ type: Object }) effective?: Record<string, unknown> | null;
  /** Absent on events written before it existed: read as null. */
  @Prop({ type: String }) tenantId?: string | null;
  @Prop({ type: Date, required: true }) at: Date;
  @Prop({ type: Object, required: true }) payload: Record<string, unknown>;
}

export const HealthEventSchema = SchemaFactory.createForClass(HealthEventRecord);

// Cursor reads of the outbox (REST, GraphQL, the subscription feed): position > cursor, in order.
HealthEventSchema.index({ position: 1 });
// One document's events in order (`{ docId, position: {$gt/$lt} }`): the console's "last events" of an entry.
HealthEventSchema.index({ docId: 1, position: 1 });
