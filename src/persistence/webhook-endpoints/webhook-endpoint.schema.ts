import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import type { SameKeys } from '../../domain/same-keys';
import { StoredSecret, WebhookEndpoint, WebhookFormat, WebhookRetry } from '../../domain/webhooks';

/** The delivery lease of one endpoint (P183): who delivers its events, until when, and the fence token of that holding. */
export interface WebhookLease {
  holder: string | null;
  /** Wall-clock ms. */
  until: number;
  /** Incremented at every change of holder; the holder's writes name it, so an ousted holder's write matches nothing. */
  fence: number;
}

/** One webhook endpoint (P180) (D24). `_id` is a random UUID. */
@Schema({ collection: 'webhook_endpoints', versionKey: false, timestamps: false })
export class WebhookEndpointRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: String, required: true }) url: string;
  @Prop({ type: String, required: true }) description: string;
  @Prop({ type: [String], enum: Object.values(HealthEventType), required: true }) eventTypes: HealthEventType[];
  @Prop({ type: [String], required: true }) toolNames: string[];
  @Prop({ type: [String], enum: Object.values(Scope), required: true }) scopes: Scope[];
  @Prop({ type: [String], required: true }) tenantIds: string[];
  @Prop({ type: String, enum: Object.values(WebhookFormat), required: true }) format: WebhookFormat;
  @Prop({ type: String, required: true }) timeZone: string;
  @Prop({ type: Boolean, required: true }) enabled: boolean;
  /** The signing secrets (P182); never leave the service except in the answer that creates or rotates one. */
  @Prop({ type: Array, required: true }) secrets: StoredSecret[];
  @Prop({ type: Date, required: true }) createdAt: Date;
  @Prop({ type: Date, required: true }) updatedAt: Date;
  @Prop({ type: String, required: true }) by: string;
  @Prop({ type: Date, default: null }) disabledAt: Date | null;
  @Prop({ type: String, default: null }) disabledReason: string | null;
  @Prop({ type: String, default: null }) cursor: string | null;
  @Prop({ type: Object, default: null }) retry: WebhookRetry | null;
  @Prop({ type: Object, required: true }) lease: WebhookLease;
  @Prop({ type: Number, required: true }) version: number;
}

/**
 * The stored shape declares every field of the endpoint (and the lease, the store's own): a field
 * added to WebhookEndpoint without its @Prop here, or the reverse, fails `tsc`. The repository
 * writes through the driver, which would store an undeclared field without a word.
 */
export const STORED_ENDPOINT_MATCHES_DOMAIN: SameKeys<
  Exclude<keyof WebhookEndpointRecord, '_id' | 'lease'>,
  Exclude<keyof WebhookEndpoint, 'id'>
> = true;

export const WebhookEndpointSchema = SchemaFactory.createForClass(WebhookEndpointRecord);

// The delivery worker's pass over the endpoints to deliver to (`enabled: true`), and the admin list.
WebhookEndpointSchema.index({ enabled: 1 });
