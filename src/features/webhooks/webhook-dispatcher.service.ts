import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { AppConfig } from '../../config/app-config';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import {
  WebhookAttempt,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookFormat,
  WebhookTrigger,
  matchesFilter,
  nextRetryAt,
  pingBody,
  signatureHeader,
  signingSecrets,
  slackText,
  standardBody,
  webhookIdOf,
} from '../../domain/webhooks';
import { Clock } from '../../runtime/clock';
import { HealthEventOutbox, PositionedEvent } from '../../persistence/health-events/health-event.outbox';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { WebhookDeliveryRepository } from '../../persistence/webhook-deliveries/webhook-delivery.repository';
import { HeldLease, WebhookEndpointRepository } from '../../persistence/webhook-endpoints/webhook-endpoint.repository';
import { EventRelay } from '../../write-path/event-relay.service';
import { SendResult, WebhookSender } from './webhook-sender';
import { disabledEvent } from '../events/webhook-disabled-events';
import { eventSummary } from '../events/event-catalogue';

/** Events read from the outbox per page… */
const BATCH = 100;
/** …and at most this many pages per endpoint and pass (2 000 events a second at the default poll). */
const MAX_PAGES = 20;
/** Endpoints listed per pass (each is one small read when nothing is due). */
const MAX_ENDPOINTS = 1000;

/**
 * Delivers the outbox (D19: the same log `/v1/events` reads, by the same cursor) to
 * every enabled endpoint (D24 / P183). Each endpoint has its own cursor and its own lease in Mongo: one
 * instance at a time delivers to it, so with any number of instances an event goes to an endpoint
 * once in normal operation. Every write of the holder (cursor, retry, disable) names the lease's
 * fence token, so an instance that lost the lease while paused cannot move the cursor. Events go
 * one after the other in outbox order (so in order per document); the cursor moves past an event
 * only after the receiver's 2xx (at least once: a crash between the send and that write sends it
 * again, with the same `webhook-id`). A failing event holds the endpoint's queue and is retried on
 * the schedule of P184 until delivered, or for 24 h; then the endpoint is disabled and a
 * WEBHOOK_ENDPOINT_DISABLED event says so. Retry times follow the injected clock.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The running listing of enabled endpoints: one at a time, however slow the database is. */
  private listing: Promise<void> | null = null;
  /** Each endpoint's delivery in progress: at most one per endpoint, so its events stay in order. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Where the next listing starts to hand out free slots, so no endpoint is always served last. */
  private rotation = 0;
  private readonly stopping = new AbortController();
  private failing = false;
  /** Endpoints whose lease this instance took: released at shutdown, so another instance goes on at once. */
  private readonly held = new Set<string>();
  /** The random source of the retry jitter (a test may fix it). */
  random: () => number = Math.random;

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: HealthEventOutbox,
    private readonly documents: ToolHealthRepository,
    private readonly relay: EventRelay,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    // Every delivery in flight listens for the stop: up to WEBHOOK_CONCURRENCY of them at once.
    setMaxListeners(config.webhookConcurrency + 16, this.stopping.signal);
  }

  onApplicationBootstrap(): void {
    if (this.config.webhookPollMs > 0) {
      this.timer = setInterval(() => void this.tick(), this.config.webhookPollMs);
      this.timer.unref();
    }
    // The leases held are renewed on a beat of their own, three times a lease: a send may take the
    // whole WEBHOOK_TIMEOUT_MS and the lease still outlasts it, so the lease can be short — and a
    // lease is all that keeps a killed instance's endpoints waiting (P264).
    this.heartbeat = setInterval(() => void this.renewHeld(), Math.max(100, Math.floor(this.config.webhookLeaseMs / 3)));
    this.heartbeat.unref();
  }

  private async renewHeld(): Promise<void> {
    for (const id of [...this.held]) {
      if (this.stopping.signal.aborted) return;
      const until = Date.now() + this.config.webhookLeaseMs;
      // Lost (taken over after a pause longer than the lease): the pass holding it finds out at its next fenced write.
      const renewed = await this.endpoints.renewLease(id, this.holder, until).catch(() => true);
      if (!renewed) this.held.delete(id);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    this.stopping.abort();
    await this.listing;
    await Promise.all(this.inFlight.values());
    await Promise.all([...this.held].map((id) => this.endpoints.releaseLease(id, this.holder).catch(() => undefined)));
  }

  /**
   * The timer's work: starts a delivery for every enabled endpoint that has none running, up to
   * WEBHOOK_CONCURRENCY at once, and waits for none of them. Each endpoint's queue advances on
   * its own: a receiver that hangs, answers slowly or fails keeps only its own slot busy, and the
   * next tick hands the other endpoints theirs (P220).
   */
  private tick(): Promise<void> {
    if (this.stopping.signal.aborted || this.listing) return Promise.resolve();
    const started: Promise<void>[] = [];
    this.listing = this.startDeliveries(started).finally(() => (this.listing = null));
    return this.listing;
  }

  /**
   * One whole pass, settled (tests and tools call it): what is running ends first, then every
   * endpoint gets a delivery of what is in the outbox now, and this waits for all of them.
   */
  async runOnce(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    await this.listing;
    await Promise.all(this.inFlight.values());
    const started: Promise<void>[] = [];
    if (!this.listing) {
      this.listing = this.startDeliveries(started).finally(() => (this.listing = null));
    }
    await this.listing;
    await Promise.all([...started, ...this.inFlight.values()]);
  }

  private async startDeliveries(started: Promise<void>[]): Promise<void> {
    let ids: string[];
    try {
      ids = await this.endpoints.findEnabledIds(MAX_ENDPOINTS);
    } catch (error) {
      this.noteFailure(error);
      return;
    }
    const offset = ids.length > 0 ? this.rotation % ids.length : 0;
    for (let i = 0; i < ids.length; i++) {
      if (this.inFlight.size >= this.config.webhookConcurrency || this.stopping.signal.aborted) break;
      const id = ids[(offset + i) % ids.length];
      if (this.inFlight.has(id)) continue;
      const delivery = this.serve(id)
        .then(() => this.noteSuccess())
        .catch((error: unknown) => this.noteFailure(error))
        .finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, delivery);
      started.push(delivery);
    }
    this.rotation = offset + 1;
  }

  private noteSuccess(): void {
    if (this.failing) this.logger.log('webhook delivery works again');
    this.failing = false;
  }

  private noteFailure(error: unknown): void {
    if (!this.failing)
      this.logger.warn(`webhook delivery failed, retrying every ${this.config.webhookPollMs} ms: ${(error as Error).message}`);
    this.failing = true;
  }

  private async lease(id: string): Promise<HeldLease | null> {
    const now = Date.now(); // lease time is wall-clock time, not domain time (as the relay's, P53)
    const lease = await this.endpoints.acquireLease(id, this.holder, now, now + this.config.webhookLeaseMs);
    if (lease) this.held.add(id);
    else this.held.delete(id);
    return lease;
  }

  /**
   * Delivers what is due at one endpoint, holding its lease only while there is: an endpoint with
   * nothing due is read, not leased, and the lease goes when the pass ends. A lease outlives an
   * instance that is killed outright (no shutdown hook runs), so the endpoints that instance held
   * wait for it to expire before another instance serves them; held only around real work, that
   * is the few endpoints with a send in flight at the kill, not every endpoint it polled.
   */
  private async serve(id: string): Promise<void> {
    if (!(await this.hasWorkDue(id))) return;
    try {
      await this.deliverDue(id);
    } finally {
      if (this.held.delete(id)) await this.endpoints.releaseLease(id, this.holder).catch(() => undefined);
    }
  }

  /** An enabled endpoint whose retry is due, or with an event after its cursor (two reads, no write). */
  private async hasWorkDue(id: string): Promise<boolean> {
    const endpoint = await this.endpoints.findById(id);
    if (!endpoint || !endpoint.enabled) return false;
    if (endpoint.retry) return endpoint.retry.nextAttemptAt.getTime() <= this.clock.now().getTime();
    return (await this.outbox.readAfter(endpoint.cursor, 1)).events.length > 0;
  }

  private async deliverDue(id: string): Promise<void> {
    let lease = await this.lease(id);
    if (!lease) return;
    const endpoint = lease.endpoint;
    let retry = endpoint.retry;
    if (retry && retry.nextAttemptAt.getTime() > this.clock.now().getTime()) return;
    // Page after page while pages come full, so an endpoint keeps up with a busy log (MAX_PAGES a pass).
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await this.outbox.readAfter(endpoint.cursor, BATCH);
      let cursor = endpoint.cursor;
      // Only where the channel gets the status change itself (its filter takes STATUS_CHANGED; tool,
      // scope and tenant are the same for every event of one write).
      const told =
        endpoint.format === WebhookFormat.SLACK &&
        (endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(HealthEventType.STATUS_CHANGED))
          ? toldByStatusChange(page.events)
          : null;
      for (const event of page.events) {
        if (this.stopping.signal.aborted) return;
        if (told?.has(event.id) || !(await this.wants(endpoint, event))) {
          cursor = event.position;
          continue;
        }
        // Renewed before every send: a lease lost meanwhile stops the pass (its holder goes on).
        lease = await this.lease(id);
        if (!lease) return;
        if (cursor !== endpoint.cursor && !(await this.endpoints.advance(lease, cursor, null))) return;
        const isRetry = retry !== null && retry.eventId === event.id;
        const webhookId = webhookIdOf(endpoint.id, event.id);
        const now = this.clock.now();
        const result = await this.send(endpoint, webhookId, this.bodyOf(endpoint, event, now), now);
        // Cut short by this instance's shutdown: no verdict on the receiver; the next holder sends it again.
        if (this.stopping.signal.aborted) return;
        const attempt = attemptOf(now, isRetry ? WebhookTrigger.RETRY : WebhookTrigger.DELIVERY, result);
        const record = { id: webhookId, endpointId: endpoint.id, eventId: event.id, eventType: event.type, attempt };
        if (result.error === null) {
          await this.deliveries.recordAttempt({ ...record, state: WebhookDeliveryState.DELIVERED, nextAttemptAt: null });
          // The receiver has it: only now does the cursor pass it (P183).
          if (!(await this.endpoints.advance(lease, event.position, null))) return;
          cursor = event.position;
          endpoint.cursor = cursor;
          retry = null;
          continue;
        }
        const failures = isRetry ? retry!.failures + 1 : 1;
        const firstFailedAt = isRetry ? retry!.firstFailedAt : now;
        const next = nextRetryAt(firstFailedAt, failures, now, this.random());
        if (next) {
          await this.deliveries.recordAttempt({ ...record, state: WebhookDeliveryState.RETRYING, nextAttemptAt: next });
          await this.endpoints.advance(lease, cursor, {
            eventId: event.id,
            position: event.position,
            failures,
            firstFailedAt,
            nextAttemptAt: next,
          });
          return;
        }
        await this.deliveries.recordAttempt({ ...record, state: WebhookDeliveryState.FAILED, nextAttemptAt: null });
        const reason = `deliveries failed for 24 h; the last attempt: ${result.error}`;
        if (await this.endpoints.disable(lease, now, reason)) {
          this.logger.warn(`webhook endpoint ${endpoint.id} disabled: ${reason}`);
          await this.relay.publish([disabledEvent(endpoint, reason, firstFailedAt, failures, now)]);
        }
        return;
      }
      // The rest of the page was not wanted: the cursor passes it without a send.
      if (cursor !== endpoint.cursor) {
        if (!(await this.endpoints.advance(lease, cursor, null))) return;
        endpoint.cursor = cursor;
        retry = null;
      }
      if (page.events.length < BATCH) return;
      lease = await this.lease(id);
      if (!lease) return;
    }
  }

  private async wants(endpoint: WebhookEndpoint, event: HealthEvent): Promise<boolean> {
    // The tenant of a document below TENANT scope is on the document (D20), read only when a tenant filter asks.
    const needsTenant = endpoint.tenantIds.length > 0 && event.scope !== Scope.TENANT;
    const tenant = needsTenant ? ((await this.documents.findById(event.docId))?.tenantId ?? null) : null;
    return matchesFilter(endpoint, event, tenant);
  }

  private bodyOf(endpoint: WebhookEndpoint, event: PositionedEvent, now: Date): string {
    return endpoint.format === WebhookFormat.SLACK
      ? JSON.stringify({
          text: slackText(eventSummary(event, now, endpoint.timeZone), this.config.publicUrl && `${this.config.publicUrl}/console`),
        })
      : standardBody(event);
  }

  /** Signs with every secret still valid at `now` and sends (P182). The secrets appear in the headers only. */
  private send(endpoint: WebhookEndpoint, webhookId: string, body: string, now: Date): Promise<SendResult> {
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(signingSecrets(endpoint.secrets, now), webhookId, timestamp, body),
    };
    return this.sender.send(endpoint.url, headers, body, this.stopping.signal);
  }

  /** Sends an event again now, with its own `webhook-id`, outside the queue; the attempt is logged (P187). */
  async resend(endpoint: WebhookEndpoint, webhookId: string, event: PositionedEvent): Promise<WebhookAttempt> {
    const now = this.clock.now();
    const result = await this.send(endpoint, webhookId, this.bodyOf(endpoint, event, now), now);
    const attempt = attemptOf(now, WebhookTrigger.RESEND, result);
    await this.deliveries.recordAttempt({
      id: webhookId,
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      attempt,
      // A resend never changes what the queue waits for: a delivery still retrying stays so.
      ...(await this.stateAfterResend(webhookId, result)),
    });
    return attempt;
  }

  /** A test ping to the endpoint (a `WEBHOOK_PING` body); the attempt is logged like a delivery (P187). */
  async ping(endpoint: WebhookEndpoint, webhookId: string): Promise<WebhookAttempt> {
    const now = this.clock.now();
    const result = await this.send(endpoint, webhookId, pingBody(endpoint.id, now), now);
    const attempt = attemptOf(now, WebhookTrigger.PING, result);
    const state = result.error === null ? WebhookDeliveryState.DELIVERED : WebhookDeliveryState.FAILED;
    await this.deliveries.recordAttempt({
      id: webhookId,
      endpointId: endpoint.id,
      eventId: null,
      eventType: 'WEBHOOK_PING',
      attempt,
      state,
      nextAttemptAt: null,
    });
    return attempt;
  }

  private async stateAfterResend(
    webhookId: string,
    result: SendResult,
  ): Promise<{ state: WebhookDeliveryState; nextAttemptAt: Date | null }> {
    const stored = await this.deliveries.findById(webhookId);
    if (result.error === null) return { state: WebhookDeliveryState.DELIVERED, nextAttemptAt: stored?.nextAttemptAt ?? null };
    if (stored?.state === WebhookDeliveryState.RETRYING) return { state: stored.state, nextAttemptAt: stored.nextAttemptAt };
    return { state: stored?.state ?? WebhookDeliveryState.FAILED, nextAttemptAt: null };
  }
}

/**
 * For a Slack channel, one post per change (P231): a verdict's write yields a STATUS_CHANGED and,
 * beside it, an INBOX_ITEM (its note) and COOLDOWN_SETs (when to diagnose again); the status line
 * already says what, why and who, so the others of that write are not posted. They share the
 * write's id prefix (`<docId>:<life>:<version>:`) and sit next to each other in the outbox, so
 * one page holds them (a write split across two pages may post them all, as before).
 */
function toldByStatusChange(events: readonly HealthEvent[]): Set<string> {
  const writes = new Set<string>();
  for (const e of events) if (e.type === HealthEventType.STATUS_CHANGED) writes.add(writeOf(e));
  const told = new Set<string>();
  for (const e of events) {
    if ((e.type === HealthEventType.INBOX_ITEM || e.type === HealthEventType.COOLDOWN_SET) && writes.has(writeOf(e))) told.add(e.id);
  }
  return told;
}

/** `<docId>:<life>:<version>` of a document event: the write it came from (life and version hold no colon). */
function writeOf(event: HealthEvent): string {
  if (!event.id.startsWith(`${event.docId}:`)) return event.id;
  const [life, version] = event.id.slice(event.docId.length + 1).split(':');
  return `${event.docId}:${life}:${version}`;
}

function attemptOf(at: Date, trigger: WebhookTrigger, result: SendResult): WebhookAttempt {
  return {
    at,
    trigger,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
    responseExcerpt: result.responseExcerpt,
  };
}
