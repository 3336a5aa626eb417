/**
 * The payload of a WEBHOOK_ENDPOINT_DISABLED event (P184): an endpoint whose delivery kept failing
 * for 24 h was disabled. Its own file, so health-events.ts names it without importing the webhook
 * rules (which import health-events.ts).
 */
export interface WebhookEndpointDisabledPayload {
  endpointId: string;
  /** The endpoint's description as its admin wrote it ("on-call channel"), so a reader knows which one without a lookup; null when it has none. */
  description: string | null;
  /** Why, in words: the last failure after 24 h of retries. */
  reason: string;
  /** When the first failed attempt of the delivery that gave up was made. */
  failingSince: Date;
  /** How many attempts that delivery had. */
  attempts: number;
}
