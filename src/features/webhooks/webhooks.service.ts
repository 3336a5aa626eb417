import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { Principal } from '../../auth/principal';
import { AppConfig } from '../../config/app-config';
import { validTimeZone } from '../../domain/clock-format';
import { DomainError } from '../../domain/domain-error';
import {
  SECRET_BYTES,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointSettings,
  endpointBlanks,
  rotateSecrets,
  secretOf,
  validateWebhookUrl,
} from '../../domain/webhooks';
import { Clock } from '../../runtime/clock';
import { adminActor } from '../../shapes/admin-actor';
import { HealthEventOutbox } from '../../persistence/health-events/health-event.outbox';
import { WebhookDeliveryRepository } from '../../persistence/webhook-deliveries/webhook-delivery.repository';
import { WebhookEndpointChange, WebhookEndpointRepository } from '../../persistence/webhook-endpoints/webhook-endpoint.repository';
import { ChangeRequest } from '../../shapes/request-of';
import { CreateWebhookEndpointDto, ChangeWebhookEndpointDto, ENDPOINT_SETTINGS } from './webhook.dto';
import { WebhookDispatcher } from './webhook-dispatcher.service';

const MAX_WRITE_ATTEMPTS = 8;

/** An endpoint with the secret just made: the one answer that carries it (P182). */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/**
 * The admin side of webhooks (P180): register, change, rotate, remove endpoints; read their
 * deliveries; resend one; ping (D24). Delivery itself is the WebhookDispatcher's.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: HealthEventOutbox,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async create(dto: CreateWebhookEndpointDto, principal: Principal): Promise<EndpointWithSecret> {
    const now = this.clock.now();
    const secret = newSecret();
    const settings = this.settingsOf(dto);
    const endpoint: WebhookEndpoint = {
      // What the request leaves out takes the endpoint's neutral value (the domain's one list of them).
      ...endpointBlanks(),
      ...settings,
      // Required by the request's validation, so always among the settings sent.
      url: settings.url ?? dto.url,
      id: randomUUID(),
      secrets: [{ secret, createdAt: now, expiresAt: null }],
      createdAt: now,
      updatedAt: now,
      by: adminActor(principal),
      // An endpoint receives the events that follow its registration, not the log's past (P183).
      cursor: await this.outbox.lastPosition(),
      version: 1,
    };
    await this.endpoints.insert(endpoint);
    return { endpoint, secret };
  }

  async list(limit = 100): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(limit);
  }

  async get(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findById(id);
    if (!endpoint) throw DomainError.notFound(`no webhook endpoint ${id}`);
    return endpoint;
  }

  async update(id: string, dto: ChangeWebhookEndpointDto, principal: Principal): Promise<WebhookEndpoint> {
    const { enabled: _enabled, ...change } = this.settingsOf(dto);
    return this.change(id, principal, (current) => {
      const next: WebhookEndpointChange = { ...change };
      if (dto.enabled != null && dto.enabled !== current.enabled) {
        next.enabled = dto.enabled;
        // Enabled again: the queue resumes at its cursor, the event that failed first (P184).
        if (dto.enabled) Object.assign(next, { disabledAt: null, disabledReason: null, retry: null });
      }
      return next;
    });
  }

  /** A new secret; the old one signs on for 24 h beside it (P182). */
  async rotateSecret(id: string, principal: Principal): Promise<EndpointWithSecret> {
    const secret = newSecret();
    const endpoint = await this.change(id, principal, (current) => ({ secrets: rotateSecrets(current.secrets, secret, this.clock.now()) }));
    return { endpoint, secret };
  }

  async delete(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.get(id);
    if (!(await this.endpoints.delete(id))) throw DomainError.notFound(`no webhook endpoint ${id}`);
    await this.deliveries.deleteByEndpoint(id);
    return endpoint;
  }

  async deliveriesOf(endpointId: string, limit = 100): Promise<WebhookDelivery[]> {
    await this.get(endpointId);
    return this.deliveries.listByEndpoint(endpointId, limit);
  }

  /** A test ping now, whatever the endpoint's filters or state; the delivery with its attempt (P187). */
  async ping(id: string): Promise<WebhookDelivery> {
    const endpoint = await this.get(id);
    const webhookId = `msg_ping_${randomUUID().replace(/-/g, '')}`;
    await this.dispatcher.ping(endpoint, webhookId);
    return (await this.deliveries.findById(webhookId))!;
  }

  /** Sends one delivery again now, with its `webhook-id` (a ping is pinged again) (P187). */
  async resend(deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findById(deliveryId);
    if (!delivery) throw DomainError.notFound(`no webhook delivery ${deliveryId}`);
    const endpoint = await this.get(delivery.endpointId);
    if (delivery.eventId === null) {
      await this.dispatcher.ping(endpoint, delivery.id);
    } else {
      const event = await this.outbox.findById(delivery.eventId);
      if (!event) throw DomainError.notFound(`the event ${delivery.eventId} is no longer in the outbox`);
      await this.dispatcher.resend(endpoint, delivery.id, event);
    }
    return (await this.deliveries.findById(delivery.id))!;
  }

  /**
   * The settings a request sends (absent and null ones left out: "unchanged", or the default),
   * each through its rule: the URL's targets, lists without repeats, a known time zone.
   */
  private settingsOf(request: ChangeRequest<WebhookEndpointSettings>): Partial<WebhookEndpointSettings> {
    const sent = ENDPOINT_SETTINGS.filter((name) => request[name] != null);
    const settings = Object.fromEntries(sent.map((name) => [name, request[name]])) as Partial<WebhookEndpointSettings>;
    if (settings.url !== undefined) settings.url = validateWebhookUrl('url', settings.url, this.config.webhookAllowPrivateTargets);
    if (settings.eventTypes) settings.eventTypes = unique(settings.eventTypes);
    if (settings.toolNames) settings.toolNames = unique(settings.toolNames);
    if (settings.scopes) settings.scopes = unique(settings.scopes);
    if (settings.tenantIds) settings.tenantIds = unique(settings.tenantIds);
    if (settings.timeZone !== undefined) settings.timeZone = validTimeZone(settings.timeZone);
    return settings;
  }

  private async change(
    id: string,
    principal: Principal,
    changeOf: (current: WebhookEndpoint) => WebhookEndpointChange,
  ): Promise<WebhookEndpoint> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.get(id);
      const updated = await this.endpoints.update(id, current.version, {
        ...changeOf(current),
        updatedAt: this.clock.now(),
        by: adminActor(principal),
      });
      if (updated) return updated;
    }
    throw DomainError.conflict(`webhook endpoint ${id} changed under this write too often; try again`);
  }
}

function newSecret(): string {
  return secretOf(randomBytes(SECRET_BYTES));
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
