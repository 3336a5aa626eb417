import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { WebhookAttempt, WebhookDeliveryState } from '../../domain/webhooks';

/** The attempts of one event (or ping) at one endpoint (P184) (D24). `_id` is the `webhook-id` sent. */
@Schema({ collection: 'webhook_deliveries', versionKey: false, timestamps: false })
export class WebhookDeliveryRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: String, required: true }) endpointId: string;
  @Prop({ type: String, default: null }) eventId: string | null;
  @Prop({ type: String, required: true }) eventType: string;
  @Prop({ type: String, enum: Object.values(WebhookDeliveryState), required: true }) state: WebhookDeliveryState;
  /** Oldest first, the newest MAX_ATTEMPTS_KEPT. */
  @Prop({ type: Array, required: true }) attempts: WebhookAttempt[];
  @Prop({ type: Date, required: true }) createdAt: Date;
  @Prop({ type: Date, required: true }) updatedAt: Date;
  @Prop({ type: Date, default: null }) nextAttemptAt: Date | null;
  /** Wall-clock time after which the database drops the record (DELIVERY_RETENTION_MS after its last attempt). */
  @Prop({ type: Date, required: true }) expiresAt: Date;
}

export const WebhookDeliverySchema = SchemaFactory.createForClass(WebhookDeliveryRecord);

// An endpoint's deliveries, newest first (the audit read), and their removal with the endpoint.
WebhookDeliverySchema.index({ endpointId: 1, createdAt: -1 });
// TTL (P184): the database removes a delivery 30 days after its last attempt (expireAfterSeconds 0 = at expiresAt).
WebhookDeliverySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
