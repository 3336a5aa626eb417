import { WebhookAttempt, WebhookDelivery, WebhookDeliveryState } from '../../domain/webhooks';

/** How long a delivery is kept after its last attempt (P184). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;

/** How many attempts a delivery keeps (the newest): a day of retries is 17, resends add one each. */
export const MAX_ATTEMPTS_KEPT = 50;

export interface AttemptRecord {
  /** The `webhook-id`. */
  id: string;
  endpointId: string;
  eventId: string | null;
  eventType: string;
  attempt: WebhookAttempt;
  state: WebhookDeliveryState;
  nextAttemptAt: Date | null;
}

/** The port (and DI token) for webhook_deliveries (D24): every attempt, readable by audit-readers. */
export abstract class WebhookDeliveryRepository {
  /** Appends the attempt to the delivery (created at its first attempt) and sets its state. */
  abstract recordAttempt(record: AttemptRecord): Promise<void>;
  abstract findById(id: string): Promise<WebhookDelivery | null>;
  /** An endpoint's deliveries, newest first; `before`: only those created before it. */
  abstract listByEndpoint(endpointId: string, limit: number, before?: Date): Promise<WebhookDelivery[]>;
  abstract deleteByEndpoint(endpointId: string): Promise<void>;
}
