import { registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { eventText } from '../../domain/webhooks';
import { MAINTENANCE_EVENTS } from '../maintenance/maintenance-events';
import { SIGNAL_EVENTS } from '../tool-stats/tool-signal-events';
import { WEBHOOK_EVENTS } from './webhook-disabled-events';
import { WIDER_EVIDENCE_EVENTS } from '../wider-evidence/wider-evidence-events';
import { EventCatalogue, EventRow } from '../../shapes/event-row';
import { HealthEventBaseView } from './event-base.view';
import { TOOL_HEALTH_EVENTS } from './tool-health-events';

/**
 * Every event type, each declared once by the feature that emits it (its rows). The table is
 * keyed by HealthEventType, so a type without a row fails `tsc` here, naming the type; everything
 * else the service says about events is derived below: the GraphQL enum's value descriptions, the
 * payload union and its type resolution, the REST event views and the OpenAPI discriminated union,
 * and the one-line summary of Slack deliveries (docs/adding-an-event.md).
 */
export const EVENT_CATALOGUE: EventCatalogue = {
  ...TOOL_HEALTH_EVENTS,
  ...MAINTENANCE_EVENTS,
  ...WIDER_EVIDENCE_EVENTS,
  ...WEBHOOK_EVENTS,
  ...SIGNAL_EVENTS,
};

type AnyRow = EventRow<HealthEventType>;
type PayloadClass = AnyRow['payload'];

/** The row of an event's type, read without narrowing (its payload matches its type by construction). */
function rowOf(type: HealthEventType): AnyRow {
  return EVENT_CATALOGUE[type] as AnyRow;
}

/** The types in the catalogue's order (each feature's rows in the order it declares them). */
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as HealthEventType[];

registerEnumType(HealthEventType, {
  name: 'HealthEventType',
  description: 'What an event records.',
  valuesMap: Object.fromEntries(EVENT_TYPES.map((type) => [type, { description: rowOf(type).description }])),
});

/** The one line a person reads for an event (the Slack text), times in `timeZone`. */
export function eventSummary(event: HealthEvent, now: Date, timeZone: string): string {
  return rowOf(event.type).summary(event as never, eventText(event, now, timeZone));
}

/** The payload classes, each once, in the order of their first type: the members of the GraphQL union and of the OpenAPI oneOf. */
export const PAYLOAD_VIEWS: PayloadClass[] = [...new Set(EVENT_TYPES.map((type) => rowOf(type).payload))];

/** The payload class of an event type (the GraphQL union's type resolution). */
export function payloadViewOf(type: HealthEventType): PayloadClass {
  return rowOf(type).payload;
}

/**
 * The REST view of the events that carry one payload class: the common fields, `type` (the event
 * types of that payload) and `payload`. Named after the payload (`PinPayloadView` → `PinEventView`),
 * the name the OpenAPI document gives the schema.
 */
function eventViewOf(payload: PayloadClass): new () => HealthEventBaseView {
  const name = payload.name.replace(/PayloadView$/, 'EventView');
  const view = { [name]: class extends HealthEventBaseView {} }[name];
  ApiProperty({ enum: EVENT_TYPES.filter((type) => rowOf(type).payload === payload) })(view.prototype, 'type');
  ApiProperty({ type: payload })(view.prototype, 'payload');
  return view;
}

/** One REST event view per payload class, in the union's order. */
export const EVENT_VIEWS = PAYLOAD_VIEWS.map(eventViewOf);

/** Each event type's REST view: the OpenAPI discriminator's mapping. */
export const EVENT_VIEW_OF = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, EVENT_VIEWS[PAYLOAD_VIEWS.indexOf(rowOf(type).payload)]]),
) as Record<HealthEventType, new () => HealthEventBaseView>;

/** The enum the catalogue registers, for the shapes that name it as a GraphQL type (importing it from here registers it first). */
export { HealthEventType };
