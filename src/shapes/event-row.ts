import { Int } from '@nestjs/graphql';
import { HealthEventOf, HealthEventPayloads, HealthEventType } from '../domain/health-events';
import type { EventText } from '../domain/webhooks';
import { ToolErrorCode, ToolHealthClassification, ToolStatus } from './enums.registration';
import { ViewFieldOptions, enumView } from './view-field';

/**
 * One event type as the feature that emits it declares it, once: everything the faces of the
 * service say about it. The REST event views and the OpenAPI discriminated union, the GraphQL
 * payload union and its type resolution, the enum value's description and the Slack line are all
 * derived from these rows (event-catalogue.ts), so a type without its row fails `tsc` there.
 */
export interface EventRow<T extends HealthEventType> {
  /** What the event records, in words: the enum value's description in GraphQL. */
  description: string;
  /**
   * The payload's answer class (a `@ViewType`), the same for REST and GraphQL. It must implement
   * the domain payload of the type; types that share a payload share its class and its REST view.
   */
  payload: new () => HealthEventPayloads[T];
  /** The one line a person reads, e.g. in a Slack channel: "jira_search is DOWN for everyone — …". */
  summary(event: HealthEventOf<T>, text: EventText): string;
}

/** Every event type's row: a table keyed by the enum, so a type left out is a compile error that names it. */
export type EventCatalogue = { [T in HealthEventType]: EventRow<T> };

/** The rows one feature declares (checked against their types with `satisfies EventRows`). */
export type EventRows = Partial<EventCatalogue>;

// Field options several payload classes share.
export const STATUS = enumView(ToolStatus, 'ToolStatus');
export const CODE: ViewFieldOptions = { ...enumView(ToolErrorCode, 'ToolErrorCode'), nullable: true };
export const CLASSIFICATION = enumView(ToolHealthClassification, 'ToolHealthClassification');
export const INTEGER: ViewFieldOptions = { type: () => Int, openapi: { type: 'integer' } };
export const BY = 'Who wrote it: an admin, a diagnosis engine or a system component.';
