import { ID } from '@nestjs/graphql';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { WebhookEndpointDisabledPayload } from '../../domain/webhook-disabled';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType } from '../../shapes/view-field';
import { EventRows, INTEGER } from '../../shapes/event-row';

@ViewType(
  'WebhookEndpointDisabledPayload',
  'The payload of a WEBHOOK_ENDPOINT_DISABLED event: a webhook endpoint whose delivery kept failing for 24 hours was disabled.',
)
export class WebhookEndpointDisabledPayloadView implements WebhookEndpointDisabledPayload {
  @ViewField('The endpoint disabled.', { type: () => ID, openapi: { type: String } }) endpointId: string;
  @ViewField('Its description, as its admin wrote it; null when it has none.', NULLABLE_STRING) description: string | null;
  @ViewField('Why, in words: the last failure.') reason: string;
  @ViewField('When the first failed attempt of the delivery that gave up was made.', INSTANT) failingSince: Date;
  @ViewField('How many attempts that delivery had.', INTEGER) attempts: number;
}

/**
 * The webhook feature's own event, declared in the events room: the webhook room reads the
 * catalogue (the Slack text), so a row of its own there would tie the two rooms in a circle.
 */
export const WEBHOOK_EVENTS = {
  [HealthEventType.WEBHOOK_ENDPOINT_DISABLED]: {
    description: 'A webhook endpoint whose deliveries failed for 24 hours was disabled (it names no tool).',
    payload: WebhookEndpointDisabledPayloadView,
    // Named as people know it (its description), with its id to find it by.
    summary: (event, { clip }) => {
      const { endpointId, description } = event.payload;
      const name = description ? `"${clip(description)}" (${endpointId})` : endpointId;
      return `Webhook endpoint ${name} disabled: ${clip(event.payload.reason)}`;
    },
  },
} satisfies EventRows;

/**
 * The event of an endpoint disabled (P184). It concerns no tool: its docId is `webhook:<endpoint>`,
 * its scope GLOBAL, its toolName empty and its status OK. The id is fixed per endpoint and moment.
 */
export function disabledEvent(
  endpoint: { id: string; description: string | null },
  reason: string,
  failingSince: Date,
  attempts: number,
  at: Date,
): HealthEvent {
  const endpointId = endpoint.id;
  const docId = `webhook:${endpointId}`;
  return {
    id: `${docId}:${at.getTime()}:${HealthEventType.WEBHOOK_ENDPOINT_DISABLED}`,
    docId,
    scope: Scope.GLOBAL,
    scopeId: null,
    toolName: '',
    status: ToolStatus.OK,
    effectiveStatus: ToolStatus.OK,
    tenantId: null,
    at,
    type: HealthEventType.WEBHOOK_ENDPOINT_DISABLED,
    payload: { endpointId, description: endpoint.description, reason, failingSince, attempts },
  };
}
