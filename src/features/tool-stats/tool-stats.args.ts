import { ArgsType, Field, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { IsId } from '../../shapes/health-key.dto';
import { DEFAULT_UPTIME_DAYS, MAX_UPTIME_DAYS } from './tool-stats.service';

/** `?tenantId=`: one tenant's calls; absent = everyone's. */
export class ToolStatsQueryDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source, description: "One tenant's calls; absent = everyone's (GLOBAL)." })
  @IsOptional()
  @IsId()
  tenantId?: string;
}

/** `?days=`: how many UTC days, today included. */
export class UptimeQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_UPTIME_DAYS,
    default: DEFAULT_UPTIME_DAYS,
    description: 'How many UTC days, today included.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_UPTIME_DAYS)
  days?: number;
}

@ArgsType()
export class ToolStatsArgs {
  @Field(() => String, { description: 'The tool, e.g. "jira_search".' })
  @IsId()
  toolName: string;

  @Field(() => String, { nullable: true, description: "One tenant's calls; absent = everyone's (GLOBAL)." })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

@ArgsType()
export class ToolUptimeArgs {
  @Field(() => String, { description: 'The tool, e.g. "jira_search".' })
  @IsId()
  toolName: string;

  @Field(() => Int, {
    nullable: true,
    description: `How many UTC days, today included: 1 … ${MAX_UPTIME_DAYS}; ${DEFAULT_UPTIME_DAYS} when absent.`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_UPTIME_DAYS)
  days?: number | null;
}
