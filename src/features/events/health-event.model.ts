import { Field, ID, ObjectType, createUnionType } from '@nestjs/graphql';
import { Scope, ToolStatus } from '../../shapes/enums.registration';
import { PageInfo } from '../../shapes/page-info.model';
import { Node } from '../../shapes/node.interface';
import { HealthEventType, PAYLOAD_VIEWS, payloadViewOf } from './event-catalogue';
import { EffectiveSourceView } from './effective-source.view';

type PayloadClass = (typeof PAYLOAD_VIEWS)[number];

/** Internal tag set by the resolver so the union can tell its members apart. */
export const PAYLOAD_KIND = '__payloadKind';

export const HealthEventPayload = createUnionType({
  name: 'HealthEventPayload',
  description: 'What an event changed; its shape depends on the event type.',
  // Derived from the event catalogue: its payload classes, and the class of the event's type.
  types: () => PAYLOAD_VIEWS as [PayloadClass, ...PayloadClass[]],
  resolveType: (value: Record<string, unknown>) => payloadViewOf(value[PAYLOAD_KIND] as HealthEventType),
});

@ObjectType('HealthEvent', {
  description: 'One event of the log: a status change, a cooldown set or expired, a pin, a diagnosis note or a deletion.',
  implements: () => [Node],
})
export class HealthEventModel implements Node {
  @Field(() => ID, {
    description:
      '`<docId>:<life>:<version>:<type>[:…]`, life being drawn when the document was created, so ids never repeat after a delete. The same event always has the same id: a reader that sees it twice can drop the second.',
  })
  id: string;
  @Field({ description: 'The cursor of this event.' }) position: string;
  @Field(() => HealthEventType, { description: 'What the event records.' }) type: HealthEventType;
  @Field({ description: 'The id of the health document (its docId).' }) docId: string;
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' }) scope: Scope;
  @Field(() => String, { nullable: true, description: 'The id of the session, user, project or tenant; null for GLOBAL.' }) scopeId:
    string | null;
  @Field({ description: 'The tool, e.g. "jira_search".' }) toolName: string;
  @Field(() => ToolStatus, { description: "The document's status after the write." }) status: ToolStatus;
  @Field(() => ToolStatus, {
    description:
      "What the event's scope reads as when it happened, as its callers are told: its own entry and the wider ones, a pin in force, a maintenance window in force (effective says why).",
  })
  effectiveStatus: ToolStatus;
  @Field(() => EffectiveSourceView, {
    nullable: true,
    description: 'Why it reads so; null for an event about no tool, and for events stored before this field existed.',
  })
  effective: EffectiveSourceView | null;
  @Field(() => String, {
    nullable: true,
    description: "The tenant the entry belongs to, where one is known (a TENANT entry's id, or the tenant stored on it); else null.",
  })
  tenantId: string | null;
  @Field({ description: 'When it happened.' }) at: Date;
  @Field(() => HealthEventPayload, { description: 'What changed; its shape depends on the type.' }) payload: typeof HealthEventPayload;
}

@ObjectType('HealthEventEdge', { description: 'One event and its cursor.' })
export class HealthEventEdge {
  @Field({ description: 'Pass it as `after` to continue after this item, or as `before` to page back from it.' }) cursor: string;
  @Field(() => HealthEventModel, { description: 'The item.' }) node: HealthEventModel;
}

@ObjectType('HealthEventConnection', {
  description:
    'The outbox in order, oldest first; page forward with first/after, back with last/before. On an empty page the cursor given stays, so polling resumes there.',
})
export class HealthEventConnection {
  @Field(() => [HealthEventEdge], { description: 'The items of this page, each with its cursor.' }) edges: HealthEventEdge[];
  @Field(() => PageInfo, { description: 'Where this page starts and ends.' }) pageInfo: PageInfo;
}
