import { Field, Float, ID, ObjectType, createUnionType } from '@nestjs/graphql';
import { HealthEventType, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus } from './enums.registration';
import { PageInfo } from './page-info.model';
import { MaintenancePayloadModel } from '../../maintenance/maintenance.graphql';
import { WiderEvidencePayloadModel } from '../../wider-evidence/wider-evidence.graphql';

@ObjectType('StatusChangedPayload')
export class StatusChangedPayloadModel {
  @Field(() => ToolStatus, { nullable: true, description: 'null when the document did not exist before (it read as OK)' }) previousStatus: ToolStatus | null;
  @Field(() => Date, { nullable: true }) expectedRecoveryAt: Date | null;
  @Field(() => ToolErrorCode, { nullable: true }) code: ToolErrorCode | null;
}

@ObjectType('CooldownPayload', { description: 'A cooldown set or expired.' })
export class CooldownPayloadModel {
  @Field() errorSignature: string;
  @Field(() => String, { nullable: true }) userId: string | null;
  @Field() nextSpawnAllowedAt: Date;
  @Field(() => Float) windowMs: number;
  @Field(() => ToolHealthClassification) lastClassification: ToolHealthClassification;
}

@ObjectType('InboxItemPayload')
export class InboxItemPayloadModel {
  @Field(() => String, { nullable: true, description: 'the user to notify; null for a tool-wide outage' }) userId: string | null;
  @Field(() => ToolHealthClassification) classification: ToolHealthClassification;
  @Field(() => String, { nullable: true }) note: string | null;
  @Field() by: string;
  @Field(() => ToolErrorCode, { nullable: true }) code: ToolErrorCode | null;
}

@ObjectType('PinPayload', { description: 'An admin pin set, changed or removed (D4b).' })
export class PinPayloadModel {
  @Field(() => ToolStatus) pinnedStatus: ToolStatus;
  @Field() until: Date;
  @Field() reason: string;
  @Field() by: string;
}

@ObjectType('DeletedPayload', { description: 'A hard delete by an admin (D14).' })
export class DeletedPayloadModel {
  @Field(() => ToolStatus) previousStatus: ToolStatus;
  @Field() by: string;
}

/** Internal tag set by the resolver so the union can tell its members apart. */
export const PAYLOAD_KIND = '__payloadKind';

export const HealthEventPayload = createUnionType({
  name: 'HealthEventPayload',
  types: () => [StatusChangedPayloadModel, CooldownPayloadModel, InboxItemPayloadModel, PinPayloadModel, DeletedPayloadModel, MaintenancePayloadModel, WiderEvidencePayloadModel] as const,
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

@ObjectType('HealthEvent', { description: 'One outbox event (D13).' })
export class HealthEventModel {
  @Field(() => ID, { description: '<docId>:<version>:<type>[:…] — idempotent' }) id: string;
  @Field({ description: 'the cursor of this event' }) position: string;
  @Field(() => HealthEventType) type: HealthEventType;
  @Field({ description: 'the id of the health document' }) docId: string;
  @Field(() => Scope) scope: Scope;
  @Field(() => String, { nullable: true }) scopeId: string | null;
  @Field() toolName: string;
  @Field(() => ToolStatus, { description: "the document's status after the write" }) status: ToolStatus;
  @Field() at: Date;
  @Field(() => HealthEventPayload) payload: typeof HealthEventPayload;
}

@ObjectType('HealthEventEdge')
export class HealthEventEdge {
  @Field() cursor: string;
  @Field(() => HealthEventModel) node: HealthEventModel;
}

@ObjectType('HealthEventConnection', { description: 'The outbox in order; endCursor stays put on an empty page, so polling resumes there.' })
export class HealthEventConnection {
  @Field(() => [HealthEventEdge]) edges: HealthEventEdge[];
  @Field(() => PageInfo) pageInfo: PageInfo;
}
