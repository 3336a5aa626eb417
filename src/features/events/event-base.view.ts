import { ApiProperty } from '@nestjs/swagger';
import { HealthEvent } from '../../domain/health-events';
import type { SameKeys } from '../../domain/same-keys';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { EffectiveSourceView } from './effective-source.view';

/** What every event carries; `type` tells which payload follows. */
export class HealthEventBaseView implements Omit<HealthEvent, 'type' | 'payload'> {
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
      "What the event's scope reads as when it happened, as its callers are told: its own entry and the wider ones, a pin in force, a maintenance window in force (effective says why).",
  })
  effectiveStatus: ToolStatus;
  @ApiProperty({
    type: EffectiveSourceView,
    nullable: true,
    description: 'Why it reads so; null for an event about no tool, and for events stored before this field existed.',
  })
  effective: EffectiveSourceView | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The tenant the entry belongs to, where one is known (a TENANT entry's id, or the tenant stored on it); else null.",
  })
  tenantId: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) at: Date;
}

/** The REST event shows every field an event has (its type and payload are each view's own), plus its position in the log. */
export const EVENT_VIEW_SHOWS_THE_EVENT: SameKeys<keyof HealthEventBaseView, Exclude<keyof HealthEvent, 'type' | 'payload'> | 'position'> =
  true;
