import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';

export class EventsQueryDto {
  @ApiPropertyOptional({ description: 'endCursor of the previous page; omit to start at the oldest event' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  after?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class HealthEventView {
  @ApiProperty({ description: '<docId>:<version>:<type>[:…] — idempotent' }) id: string;
  @ApiProperty() position: string;
  @ApiProperty({ enum: HealthEventType, enumName: 'HealthEventType' }) type: HealthEventType;
  @ApiProperty() docId: string;
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty() toolName: string;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
  @ApiProperty({ type: String, format: 'date-time' }) at: Date;
  @ApiProperty({ type: Object }) payload: object;
}

export class EventPageView {
  @ApiProperty({ type: [HealthEventView] }) events: HealthEventView[];
  @ApiProperty({ type: String, nullable: true }) endCursor: string | null;
}
