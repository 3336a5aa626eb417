import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, ValidateNested } from 'class-validator';
import { CallContextDto } from '../../shapes/call-context.dto';
import { CascadeTraceView } from '../../shapes/cascade-trace.view';
import { IsId } from '../../shapes/health-key.dto';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { CascadeReason } from '../../domain/cascade';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { MaintenanceSummaryView } from '../maintenance/maintenance.dto';

export const MAX_LOOKUP_TOOLS = 500;

export class BatchLookupDto {
  @ApiProperty({ type: [String], maxItems: MAX_LOOKUP_TOOLS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LOOKUP_TOOLS)
  @IsId({ each: true })
  toolNames: string[];

  @ApiPropertyOptional({ nullable: true, type: CallContextDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextDto)
  context?: CallContextDto;
}

export class EntrySummaryView {
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
  @ApiProperty() retesting: boolean;
  @ApiProperty() pinned: boolean;
}

/** The cascade's answer for one tool (§4): the effective status and why. */
export class EffectiveHealthView {
  @ApiProperty() toolName: string;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
  @ApiProperty({ description: 'DOWN/DEGRADED whose expected recovery has passed (D5)' }) retesting: boolean;
  @ApiProperty({ enum: CascadeReason, enumName: 'CascadeReason' }) reason: CascadeReason;
  @ApiProperty({ type: ToolHealthView, nullable: true, description: 'The entry that decided; null = default OK' })
  winner: ToolHealthView | null;
  @ApiProperty({ type: [EntrySummaryView], description: 'Stored entries of the cascade, narrow to wide' }) considered: EntrySummaryView[];
  @ApiProperty({ type: [EntrySummaryView], description: 'wider problem entries the winner hid' }) shadowed: EntrySummaryView[];
  @ApiProperty({
    type: CascadeTraceView,
    description: 'why, like a feature flag evaluation reason: the matched entry, by whom, since, until, what it shadowed',
  })
  trace: CascadeTraceView;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'D20: when the tool is expected back — the first instant nothing in reach blocks it (outages, windows in force and those that follow without a gap); null when nothing blocks or a block has no known end (see blocked)',
  })
  backAt: Date | null;
  @ApiProperty({ description: 'D20: something in reach blocks the call now (a DOWN entry or pin, a window in force)' }) blocked: boolean;
  @ApiProperty({
    type: MaintenanceSummaryView,
    nullable: true,
    description: 'issue 16: the maintenance window in force and the next one coming; null when none',
  })
  maintenance: MaintenanceSummaryView | null;
}
