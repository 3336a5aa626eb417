import { Field, Float, ID, ObjectType, createUnionType } from '@nestjs/graphql';
import { HealthEventType, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus } from '../../shapes/enums.registration';
import { PageInfo } from '../../shapes/page-info.model';
import { Node } from '../../shapes/node.interface';
import { MaintenancePayloadModel } from '../maintenance/maintenance.graphql';
import { WiderEvidencePayloadModel } from '../wider-evidence/wider-evidence.graphql';

@ObjectType('StatusChangedPayload', { description: 'The payload of a STATUS_CHANGED event.' })
export class StatusChangedPayloadModel {
  @Field(() => ToolStatus, { nullable: true, description: 'Null when the document did not exist before (it read as OK)' })
  previousStatus: ToolStatus | null;
  @Field(() => Date, { nullable: true, description: 'When the tool is expected to work again, if known.' }) expectedRecoveryAt: Date | null;
  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  code: ToolErrorCode | null;
}

@ObjectType('CooldownPayload', { description: 'A cooldown set or expired.' })
export class CooldownPayloadModel {
  @Field({ description: 'A stable name for the error, e.g. "http-403".' }) errorSignature: string;
  @Field(() => String, {
    nullable: true,
    description: 'The user of a user-specific cooldown or note; null when it concerns everyone at the scope.',
  })
  userId: string | null;
  @Field({ description: 'When a diagnosis of this error may be spawned again: the end of the cooldown.' }) nextSpawnAllowedAt: Date;
  @Field(() => Float, { description: 'The length of the current cooldown window, in milliseconds.' }) windowMs: number;
  @Field(() => ToolHealthClassification, { description: 'The classification that set or renewed the cooldown.' })
  lastClassification: ToolHealthClassification;
}

@ObjectType('InboxItemPayload', { description: 'The payload of an INBOX_ITEM event: a diagnosis note for a user, or for everyone.' })
export class InboxItemPayloadModel {
  @Field(() => String, { nullable: true, description: 'The user to notify; null for a tool-wide outage' }) userId: string | null;
  @Field(() => ToolHealthClassification, { description: 'What kind of failure (or WORKING) the diagnosis found.' })
  classification: ToolHealthClassification;
  @Field(() => String, { nullable: true, description: 'What was observed, in words.' }) note: string | null;
  @Field({ description: 'Who wrote it: an admin, a diagnosis engine or a system component.' }) by: string;
  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  code: ToolErrorCode | null;
}

@ObjectType('PinPayload', { description: 'An admin pin set, changed or removed.' })
export class PinPayloadModel {
  @Field(() => ToolStatus, { description: 'The status the pin holds.' }) pinnedStatus: ToolStatus;
  @Field({ description: 'When it ends.' }) until: Date;
  @Field({ description: 'Why the admin pinned it.' }) reason: string;
  @Field({ description: 'Who wrote it: an admin, a diagnosis engine or a system component.' }) by: string;
}

@ObjectType('DeletedPayload', { description: 'An entry deleted for good by an admin.' })
export class DeletedPayloadModel {
  @Field(() => ToolStatus, { description: 'The status before the change.' }) previousStatus: ToolStatus;
  @Field({ description: 'Who wrote it: an admin, a diagnosis engine or a system component.' }) by: string;
}

/** Internal tag set by the resolver so the union can tell its members apart. */
export const PAYLOAD_KIND = '__payloadKind';

export const HealthEventPayload = createUnionType({
  name: 'HealthEventPayload',
  description: 'What an event changed; its shape depends on the event type.',
  types: () =>
    [
      StatusChangedPayloadModel,
      CooldownPayloadModel,
      InboxItemPayloadModel,
      PinPayloadModel,
      DeletedPayloadModel,
      MaintenancePayloadModel,
      WiderEvidencePayloadModel,
    ] as const,
  resolveType(value: Record<string, unknown>) {
    switch (value[PAYLOAD_KIND]) {
      case HealthEventType.STATUS_CHANGED:
        return StatusChangedPayloadModel;
      case HealthEventType.COOLDOWN_SET:
      case HealthEventType.COOLDOWN_EXPIRED:
        return CooldownPayloadModel;
      case HealthEventType.INBOX_ITEM:
        return InboxItemPayloadModel;
      case HealthEventType.PIN_SET:
      case HealthEventType.PIN_CLEARED:
      case HealthEventType.PIN_ENDED:
        return PinPayloadModel;
      case HealthEventType.DELETED:
        return DeletedPayloadModel;
      case HealthEventType.MAINTENANCE_STARTED:
      case HealthEventType.MAINTENANCE_ENDED:
        return MaintenancePayloadModel;
      case HealthEventType.WIDER_EVIDENCE:
        return WiderEvidencePayloadModel;
      default:
        return null;
    }
  },
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
