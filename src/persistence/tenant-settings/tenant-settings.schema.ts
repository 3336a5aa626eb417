import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Per-tenant tuning (§10 "History Retention … tunable via tenant setting"). `_id` = tenantId. */
@Schema({ collection: 'tenant_settings', versionKey: false })
export class TenantSettingsRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: Number, default: null }) historyLimit: number | null;
  @Prop({ type: Date, required: true }) updatedAt: Date;
  @Prop({ type: String, required: true }) updatedBy: string;
}

export const TenantSettingsSchema = SchemaFactory.createForClass(TenantSettingsRecord);
