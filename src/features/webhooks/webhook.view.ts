import { Float, ID, Int, registerEnumType } from '@nestjs/graphql';
import {
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookFormat,
  WebhookTrigger,
} from '../../domain/webhooks';
import { Scope } from '../../shapes/enums.registration';
import { HealthEventType } from '../events/event-catalogue';
import type { SameKeys } from '../../domain/same-keys';
import { INSTANT, NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType, enumView } from '../../shapes/view-field';

// A webhook endpoint and its deliveries as both APIs answer them (P115) (D24). No view has a
// field for a secret: it is answered once, by the two answers that make one (P182).

registerEnumType(WebhookFormat, {
  name: 'WebhookFormat',
  description: 'The body a webhook endpoint receives.',
  valuesMap: {
    STANDARD: { description: 'Standard Webhooks JSON: { type, timestamp, data } with data the event as /v1/events gives it.' },
    SLACK: {
      description:
        'A Slack incoming-webhook body: { "text": "jira_search is DOWN for everyone: technically broken — HTTP 503 from Jira. Expected back at 14:30 UTC." }.',
    },
  },
});
registerEnumType(WebhookTrigger, {
  name: 'WebhookTrigger',
  description: 'What made a delivery attempt.',
  valuesMap: {
    DELIVERY: { description: 'The first attempt of an event.' },
    RETRY: { description: 'A retry after a failed attempt.' },
    RESEND: { description: 'An admin asked to send it again.' },
    PING: { description: 'A test ping.' },
  },
});
registerEnumType(WebhookDeliveryState, {
  name: 'WebhookDeliveryState',
  description: 'Where a delivery stands after its last attempt.',
  valuesMap: {
    RETRYING: { description: 'The last attempt failed; another follows at nextAttemptAt.' },
    DELIVERED: { description: 'The receiver answered 2xx.' },
    FAILED: { description: 'The last attempt failed and none follows (given up after 24 h, or a failed ping or resend).' },
  },
});

const EVENT_TYPES: ViewFieldOptions = {
  type: () => [HealthEventType],
  openapi: { enum: HealthEventType, enumName: 'HealthEventType', isArray: true },
};
const STRINGS: ViewFieldOptions = { type: () => [String], openapi: { type: String, isArray: true } };

@ViewType(
  'WebhookEndpoint',
  'Where and what the service delivers as signed webhooks (Standard Webhooks). Its secret is never shown again after it was made.',
)
export class WebhookEndpointView implements Omit<WebhookEndpoint, EndpointFieldNotShown> {
  @ViewField("The endpoint's id.", { type: () => ID, openapi: { type: String } }) id: string;
  @ViewField('Where deliveries are POSTed.') url: string;
  @ViewField('What the endpoint is for.') description: string;
  @ViewField('The event types delivered; empty: every type.', EVENT_TYPES) eventTypes: HealthEventType[];
  @ViewField('Only events of these tools; empty: every tool.', STRINGS) toolNames: string[];
  @ViewField('Only events of entries at these scopes; empty: every scope.', {
    type: () => [Scope],
    openapi: { enum: Scope, enumName: 'Scope', isArray: true },
  })
  scopes: Scope[];
  @ViewField('Only events of these tenants; empty: every tenant.', STRINGS) tenantIds: string[];
  @ViewField('The body format.', enumView(WebhookFormat, 'WebhookFormat')) format: WebhookFormat;
  @ViewField('The time zone of the times in SLACK texts.') timeZone: string;
  @ViewField('Whether deliveries go out.') enabled: boolean;
  @ViewField('"admin:<key name>" of the last change.') by: string;
  @ViewField('When the endpoint was registered.', INSTANT) createdAt: Date;
  @ViewField('When it last changed.', INSTANT) updatedAt: Date;
  @ViewField('When deliveries were given up and the endpoint disabled; null unless that happened.', { ...INSTANT, nullable: true })
  disabledAt: Date | null;
  @ViewField('Why it was disabled; null unless it was.', NULLABLE_STRING) disabledReason: string | null;
  @ViewField('Until when a rotated-out secret still signs (deliveries carry both signatures); null when only one secret signs.', {
    ...INSTANT,
    nullable: true,
  })
  previousSecretValidUntil: Date | null;
  @ViewField('When the delivery the queue waits on is tried again; null when nothing failed.', { ...INSTANT, nullable: true })
  nextRetryAt: Date | null;
}

@ViewType('WebhookEndpointSecret', 'An endpoint with its new signing secret: shown in this answer only.')
export class WebhookEndpointSecretView {
  @ViewField('The endpoint.', { type: () => WebhookEndpointView, openapi: { type: WebhookEndpointView } }) endpoint: WebhookEndpointView;
  @ViewField(
    'The signing secret, `whsec_` + base64 (Standard Webhooks): keep it, it is never shown again. Verify deliveries with it, e.g. `new Webhook(secret).verify(body, headers)` of the standardwebhooks library.',
    { openapi: { type: String, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
  )
  secret: string;
}

@ViewType('WebhookAttempt', 'One attempt to deliver: when, what came back, how long it took.')
export class WebhookAttemptView implements WebhookAttempt {
  @ViewField('When it was sent.', INSTANT) at: Date;
  @ViewField('What made it.', enumView(WebhookTrigger, 'WebhookTrigger')) trigger: WebhookTrigger;
  @ViewField("The receiver's HTTP status; null when none came (timeout, refused, not resolved).", {
    type: () => Int,
    nullable: true,
    openapi: { type: 'integer' },
  })
  statusCode: number | null;
  @ViewField('How long it took, in milliseconds.', { type: () => Float, openapi: { type: 'integer' } }) latencyMs: number;
  @ViewField('Why it failed; null on a 2xx.', NULLABLE_STRING) error: string | null;
  @ViewField("The start of the receiver's answer (at most 1024 bytes); null when none came.", NULLABLE_STRING) responseExcerpt:
    string | null;
}

@ViewType('WebhookDelivery', 'One event (or ping) at one endpoint, with its attempts.')
export class WebhookDeliveryView implements WebhookDelivery {
  @ViewField('The `webhook-id` sent: the same on every attempt, so a receiver drops repeats by it.', {
    type: () => ID,
    openapi: { type: String },
  })
  id: string;
  @ViewField('The endpoint.', { type: () => ID, openapi: { type: String } }) endpointId: string;
  @ViewField('The event delivered (its id in /v1/events); null for a ping.', NULLABLE_STRING) eventId: string | null;
  @ViewField('The event type, or WEBHOOK_PING.') eventType: string;
  @ViewField('Where it stands.', enumView(WebhookDeliveryState, 'WebhookDeliveryState')) state: WebhookDeliveryState;
  @ViewField('The attempts, oldest first (the newest 50).', { type: () => [WebhookAttemptView], openapi: { type: [WebhookAttemptView] } })
  attempts: WebhookAttemptView[];
  @ViewField('The first attempt.', INSTANT) createdAt: Date;
  @ViewField('The last attempt.', INSTANT) updatedAt: Date;
  @ViewField('When the next retry is due; null when none is.', { ...INSTANT, nullable: true }) nextAttemptAt: Date | null;
}

/** The endpoint's fields the answer leaves out: the secrets (shown once, P182) and the delivery worker's bookkeeping. */
type EndpointFieldNotShown = 'secrets' | 'cursor' | 'retry' | 'version';

/**
 * The answer shows every field of the endpoint but those left out by name, plus two it derives:
 * a field the domain adds without its `@ViewField` above (or a view field the domain lacks) fails
 * `tsc` here.
 */
export const WEBHOOK_ENDPOINT_VIEW_SHOWS_THE_ENDPOINT: SameKeys<
  keyof WebhookEndpointView,
  Exclude<keyof WebhookEndpoint, EndpointFieldNotShown> | 'previousSecretValidUntil' | 'nextRetryAt'
> = true;

export function toWebhookEndpointView(endpoint: WebhookEndpoint, now: Date): WebhookEndpointView {
  const { secrets, cursor: _cursor, retry, version: _version, ...shown } = endpoint;
  const previous = secrets.filter((s) => s.expiresAt !== null && s.expiresAt.getTime() > now.getTime());
  return {
    ...shown,
    previousSecretValidUntil: previous.length > 0 ? new Date(Math.max(...previous.map((s) => s.expiresAt!.getTime()))) : null,
    nextRetryAt: retry?.nextAttemptAt ?? null,
  };
}

export function toWebhookDeliveryView(delivery: WebhookDelivery): WebhookDeliveryView {
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    state: delivery.state,
    attempts: delivery.attempts.map((a) => ({
      at: a.at,
      trigger: a.trigger,
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      error: a.error,
      responseExcerpt: a.responseExcerpt,
    })),
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
    nextAttemptAt: delivery.nextAttemptAt,
  };
}
