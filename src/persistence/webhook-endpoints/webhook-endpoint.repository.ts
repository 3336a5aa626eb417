import { WebhookEndpoint, WebhookEndpointSettings, WebhookRetry } from '../../domain/webhooks';

/** What a change may set (P180): every setting an admin sends (typed from the domain's list), and the fields a change moves with it. */
export type WebhookEndpointChange = Partial<
  Pick<WebhookEndpoint, keyof WebhookEndpointSettings | 'secrets' | 'disabledAt' | 'disabledReason' | 'retry' | 'updatedAt' | 'by'>
>;

/** An endpoint's delivery lease as held by one instance (P183). */
export interface HeldLease {
  endpoint: WebhookEndpoint;
  holder: string;
  fence: number;
}

/** The port (and DI token) for webhook_endpoints (D24). */
export abstract class WebhookEndpointRepository {
  abstract insert(endpoint: WebhookEndpoint): Promise<void>;
  abstract findById(id: string): Promise<WebhookEndpoint | null>;
  abstract list(limit: number): Promise<WebhookEndpoint[]>;
  /** Sets the fields if the stored version is still `expectedVersion` (and bumps it); the endpoint after, null on a lost race or when gone. */
  abstract update(id: string, expectedVersion: number, change: WebhookEndpointChange): Promise<WebhookEndpoint | null>;
  abstract delete(id: string): Promise<boolean>;
  /** Ids of the enabled endpoints. */
  abstract findEnabledIds(limit: number): Promise<string[]>;
  /**
   * Takes or renews the delivery lease of an enabled endpoint for `holder` until `untilMs`; a new
   * holder gets a new fence token. Null while another holder's lease runs (or the endpoint is gone or disabled).
   */
  abstract acquireLease(id: string, holder: string, nowMs: number, untilMs: number): Promise<HeldLease | null>;
  /** Extends a lease `holder` still holds (its fence kept); false when it holds none (released, or taken over). */
  abstract renewLease(id: string, holder: string, untilMs: number): Promise<boolean>;
  abstract releaseLease(id: string, holder: string): Promise<void>;
  /** Fenced: moves the cursor (and clears or sets the retry) only while `lease` is still the stored one. */
  abstract advance(lease: HeldLease, cursor: string | null, retry: WebhookRetry | null): Promise<boolean>;
  /** Fenced: disables the endpoint after 24 h of failures (the cursor stays on the event that failed). */
  abstract disable(lease: HeldLease, at: Date, reason: string): Promise<boolean>;
}
