import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { EVENT_CURSOR_PATTERN } from '../../domain/event-cursor';
import { PositionedEvent } from '../../persistence/health-events/health-event.outbox';
import { EVENT_VIEWS, EVENT_VIEW_OF } from './event-catalogue';
import { LimitQuery } from '../../shapes/page-size';

export class EventsQueryDto {
  @ApiPropertyOptional({ pattern: EVENT_CURSOR_PATTERN, description: 'endCursor of the previous page; omit to start at the oldest event' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  after?: string;

  @LimitQuery('How many events at most.')
  limit?: number;
}

/**
 * The events of one page. Each event's REST view (one per payload class, derived from the event
 * catalogue) is a member of a discriminated oneOf on `type`.
 */
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
  events: PositionedEvent[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass it as after to read the next page.' }) endCursor: string | null;
}
