import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { EVENT_CURSOR_PATTERN } from '../../domain/event-cursor';
import { HealthEventType } from '../../domain/health-events';
import { ToolHealthClassification } from '../../domain/classification';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';

export class EventsQueryDto {
  @ApiPropertyOptional({ pattern: EVENT_CURSOR_PATTERN, description: 'endCursor of the previous page; omit to start at the oldest event' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'How many events at most.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** The payload of a STATUS_CHANGED event. */
export class StatusChangedPayloadView {
  @ApiProperty({
    enum: ToolStatus,
    enumName: 'ToolStatus',
    nullable: true,
    description: 'The status before; null when there was no entry (it read as OK).',
  })
  previousStatus: ToolStatus | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the tool is expected back, if known.' })
  expectedRecoveryAt: Date | null;
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode', nullable: true, description: 'What the dispatch saw, if anything.' })
  code: ToolErrorCode | null;
}

/** The payload of a COOLDOWN_SET or COOLDOWN_EXPIRED event. */
export class CooldownPayloadView {
  @ApiProperty({ description: 'The error signature the cooldown is about.' }) errorSignature: string;
  @ApiProperty({ type: String, nullable: true, description: 'The user, for a user-specific cooldown; null otherwise.' }) userId:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'When a diagnosis may be spawned again.' }) nextSpawnAllowedAt: Date;
  @ApiProperty({ type: 'integer', description: 'The window, in milliseconds.' }) windowMs: number;
  @ApiProperty({ enum: ToolHealthClassification, enumName: 'ToolHealthClassification', description: 'The classification that set it.' })
  lastClassification: ToolHealthClassification;
}

/** The payload of an INBOX_ITEM event: a diagnosis note for a user (or everyone). */
export class InboxItemPayloadView {
  @ApiProperty({ type: String, nullable: true, description: 'The user to notify; null for a tool-wide outage.' }) userId: string | null;
  @ApiProperty({ enum: ToolHealthClassification, enumName: 'ToolHealthClassification' }) classification: ToolHealthClassification;
  @ApiProperty({ type: String, nullable: true, description: 'What the diagnosis found.' }) note: string | null;
  @ApiProperty({ description: 'Who diagnosed it.' }) by: string;
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode', nullable: true }) code: ToolErrorCode | null;
}

/** The payload of a PIN_SET or PIN_CLEARED event. */
export class PinPayloadView {
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus', description: 'The status the pin holds.' }) pinnedStatus: ToolStatus;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the pin ends.' }) until: Date;
  @ApiProperty({ description: 'Why the admin pinned it.' }) reason: string;
  @ApiProperty({ description: 'The admin who pinned it.' }) by: string;
}

/** The payload of a DELETED event. */
export class DeletedPayloadView {
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus', description: 'The status the entry had.' }) previousStatus: ToolStatus;
  @ApiProperty({ description: 'The admin who deleted it.' }) by: string;
}

/** The payload of a MAINTENANCE_STARTED or MAINTENANCE_ENDED event. */
export class MaintenancePayloadView {
  @ApiProperty({ description: 'The window.' }) windowId: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the window starts.' }) from: Date;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the window ends.' }) until: Date;
  @ApiProperty({ description: 'Why the tool is under maintenance.' }) reason: string;
  @ApiProperty({ description: 'The admin who scheduled it.' }) by: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Set when the window ended because it was cancelled.' })
  cancelledAt: Date | null;
}

/** The payload of a WIDER_EVIDENCE event: a failure seen by enough users and projects to be wider than one of them. */
export class WiderEvidencePayloadView {
  @ApiProperty({ description: 'The error signature the users share.' }) errorSignature: string;
  @ApiProperty({ type: 'integer', description: 'Distinct users whose calls failed so in the window.' }) distinctUsers: number;
  @ApiProperty({ type: 'integer', description: 'Distinct projects among them.' }) distinctProjects: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'The start of the window counted.' }) since: Date;
  @ApiProperty({ description: "The diagnosis queue's key for the wider scope." }) coalescingKey: string;
}

/** What every event carries; `type` tells which payload follows. */
export class HealthEventBaseView {
  @ApiProperty({ description: 'Stable per write: reading an event twice gives the same id.' }) id: string;
  @ApiProperty({ description: 'Where the event sits in the log.' }) position: string;
  @ApiProperty({ description: 'The entry the event is about.' }) docId: string;
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty() toolName: string;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus', description: 'The status after the write.' }) status: ToolStatus;
  @ApiProperty({ type: String, format: 'date-time' }) at: Date;
}

export class StatusChangedEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.STATUS_CHANGED] }) type: HealthEventType.STATUS_CHANGED;
  @ApiProperty({ type: StatusChangedPayloadView }) payload: StatusChangedPayloadView;
}

export class CooldownEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.COOLDOWN_SET, HealthEventType.COOLDOWN_EXPIRED] }) type:
    HealthEventType.COOLDOWN_SET | HealthEventType.COOLDOWN_EXPIRED;
  @ApiProperty({ type: CooldownPayloadView }) payload: CooldownPayloadView;
}

export class InboxItemEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.INBOX_ITEM] }) type: HealthEventType.INBOX_ITEM;
  @ApiProperty({ type: InboxItemPayloadView }) payload: InboxItemPayloadView;
}

export class PinEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.PIN_SET, HealthEventType.PIN_CLEARED, HealthEventType.PIN_ENDED] }) type:
    HealthEventType.PIN_SET | HealthEventType.PIN_CLEARED | HealthEventType.PIN_ENDED;
  @ApiProperty({ type: PinPayloadView }) payload: PinPayloadView;
}

export class DeletedEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.DELETED] }) type: HealthEventType.DELETED;
  @ApiProperty({ type: DeletedPayloadView }) payload: DeletedPayloadView;
}

export class MaintenanceEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.MAINTENANCE_STARTED, HealthEventType.MAINTENANCE_ENDED] }) type:
    HealthEventType.MAINTENANCE_STARTED | HealthEventType.MAINTENANCE_ENDED;
  @ApiProperty({ type: MaintenancePayloadView }) payload: MaintenancePayloadView;
}

export class WiderEvidenceEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.WIDER_EVIDENCE] }) type: HealthEventType.WIDER_EVIDENCE;
  @ApiProperty({ type: WiderEvidencePayloadView }) payload: WiderEvidencePayloadView;
}

/** One view per payload shape; the event's `type` picks it (a discriminated union in the OpenAPI document). */
export const EVENT_VIEW_OF: Record<HealthEventType, new () => HealthEventBaseView> = {
  [HealthEventType.STATUS_CHANGED]: StatusChangedEventView,
  [HealthEventType.COOLDOWN_SET]: CooldownEventView,
  [HealthEventType.COOLDOWN_EXPIRED]: CooldownEventView,
  [HealthEventType.INBOX_ITEM]: InboxItemEventView,
  [HealthEventType.PIN_SET]: PinEventView,
  [HealthEventType.PIN_CLEARED]: PinEventView,
  [HealthEventType.DELETED]: DeletedEventView,
  [HealthEventType.PIN_ENDED]: PinEventView,
  [HealthEventType.MAINTENANCE_STARTED]: MaintenanceEventView,
  [HealthEventType.MAINTENANCE_ENDED]: MaintenanceEventView,
  [HealthEventType.WIDER_EVIDENCE]: WiderEvidenceEventView,
};

export type HealthEventView =
  | StatusChangedEventView
  | CooldownEventView
  | InboxItemEventView
  | PinEventView
  | DeletedEventView
  | MaintenanceEventView
  | WiderEvidenceEventView;

const EVENT_VIEWS = [
  StatusChangedEventView,
  CooldownEventView,
  InboxItemEventView,
  PinEventView,
  DeletedEventView,
  MaintenanceEventView,
  WiderEvidenceEventView,
];

@ApiExtraModels(...EVENT_VIEWS)
export class EventPageView {
  @ApiProperty({
    type: 'array',
    description: "Oldest first. Each event's payload depends on its type.",
    items: {
      oneOf: EVENT_VIEWS.map((view) => ({ $ref: getSchemaPath(view) })),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(Object.entries(EVENT_VIEW_OF).map(([type, view]) => [type, getSchemaPath(view)])),
      },
    },
  })
  events: HealthEventView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass it as after to read the next page.' }) endCursor: string | null;
}
