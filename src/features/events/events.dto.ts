import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { EVENT_CURSOR_PATTERN } from '../../domain/event-cursor';
import {
  CooldownPayloadView,
  DeletedPayloadView,
  InboxItemPayloadView,
  MaintenancePayloadView,
  PinPayloadView,
  StatusChangedPayloadView,
  WiderEvidencePayloadView,
  WebhookEndpointDisabledPayloadView,
  SignalPayloadView,
} from './event-payloads.view';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
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

/** What every event carries; `type` tells which payload follows. */
export class HealthEventBaseView {
  @ApiProperty({ description: 'Stable per write: reading an event twice gives the same id.' }) id: string;
  @ApiProperty({ description: 'Where the event sits in the log.' }) position: string;
  @ApiProperty({ description: 'The entry the event is about.' }) docId: string;
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty() toolName: string;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus', description: 'The status after the write.' }) status: ToolStatus;
  @ApiProperty({
    enum: ToolStatus,
    enumName: 'ToolStatus',
    description:
      'What the entry reads as at its own scope after the event: a pin in force wins over the stored status; DOWN while maintenance is in force.',
  })
  effectiveStatus: ToolStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The tenant the entry belongs to, where one is known (a TENANT entry's id, or the tenant stored on it); else null.",
  })
  tenantId: string | null;
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
  @ApiProperty({ enum: [HealthEventType.MAINTENANCE_STARTING, HealthEventType.MAINTENANCE_STARTED, HealthEventType.MAINTENANCE_ENDED] })
  type: HealthEventType.MAINTENANCE_STARTING | HealthEventType.MAINTENANCE_STARTED | HealthEventType.MAINTENANCE_ENDED;
  @ApiProperty({ type: MaintenancePayloadView }) payload: MaintenancePayloadView;
}

export class WiderEvidenceEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.WIDER_EVIDENCE] }) type: HealthEventType.WIDER_EVIDENCE;
  @ApiProperty({ type: WiderEvidencePayloadView }) payload: WiderEvidencePayloadView;
}

export class WebhookEndpointDisabledEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.WEBHOOK_ENDPOINT_DISABLED] }) type: HealthEventType.WEBHOOK_ENDPOINT_DISABLED;
  @ApiProperty({ type: WebhookEndpointDisabledPayloadView }) payload: WebhookEndpointDisabledPayloadView;
}

export class SignalEventView extends HealthEventBaseView {
  @ApiProperty({ enum: [HealthEventType.SIGNAL_STARTED, HealthEventType.SIGNAL_ENDED] })
  type: HealthEventType.SIGNAL_STARTED | HealthEventType.SIGNAL_ENDED;
  @ApiProperty({ type: SignalPayloadView }) payload: SignalPayloadView;
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
  [HealthEventType.MAINTENANCE_STARTING]: MaintenanceEventView,
  [HealthEventType.WIDER_EVIDENCE]: WiderEvidenceEventView,
  [HealthEventType.WEBHOOK_ENDPOINT_DISABLED]: WebhookEndpointDisabledEventView,
  [HealthEventType.SIGNAL_STARTED]: SignalEventView,
  [HealthEventType.SIGNAL_ENDED]: SignalEventView,
};

export type HealthEventView =
  | StatusChangedEventView
  | CooldownEventView
  | InboxItemEventView
  | PinEventView
  | DeletedEventView
  | MaintenanceEventView
  | WiderEvidenceEventView
  | WebhookEndpointDisabledEventView
  | SignalEventView;

const EVENT_VIEWS = [
  StatusChangedEventView,
  CooldownEventView,
  InboxItemEventView,
  PinEventView,
  DeletedEventView,
  MaintenanceEventView,
  WiderEvidenceEventView,
  WebhookEndpointDisabledEventView,
  SignalEventView,
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
