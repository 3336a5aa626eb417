import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { HealthKeyDto, IsId } from '../../common/dto/health-key.dto';
import { ToolHealthClassification } from '../../domain/classification';
import { MAX_WINDOW_MS, MIN_WINDOW_MS } from '../../domain/cooldown-window';
import { ID_PATTERN } from '../../domain/health-key';

const DAY_MS = 24 * 3600_000;

/** §7 second row: ToolHealthService.setCooldown(scope, key, signature, classification, duration). */
export class SetCooldownDto extends HealthKeyDto {
  @ApiProperty({ pattern: ID_PATTERN.source, example: 'http-403' })
  @IsId()
  errorSignature: string;

  @ApiProperty({ enum: ToolHealthClassification, enumName: 'ToolHealthClassification' })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1000,
    maximum: 30 * DAY_MS,
    description: "The window in milliseconds; when absent, the classification's default.",
    example: 300000,
  })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(30 * DAY_MS)
  durationMs?: number;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source, description: 'only for a user-specific cooldown (USER_PERMISSION)' })
  @IsOptional()
  @IsId()
  userId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  tenantId?: string;
}

export class ClearCooldownDto extends HealthKeyDto {
  @ApiProperty({ pattern: ID_PATTERN.source })
  @IsId()
  errorSignature: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  userId?: string;
}

/** An admin changes one cooldown's window without restarting it (P85). */
export class ChangeCooldownWindowDto extends HealthKeyDto {
  @ApiProperty({ pattern: ID_PATTERN.source, example: 'http-403', description: 'The error signature of the cooldown.' })
  @IsId()
  errorSignature: string;

  @ApiPropertyOptional({
    nullable: true,
    pattern: ID_PATTERN.source,
    example: 'alice',
    description: 'The user of a user-specific cooldown; leave it out for the scope-wide one.',
  })
  @IsOptional()
  @IsId()
  userId?: string;

  @ApiProperty({
    type: 'integer',
    minimum: MIN_WINDOW_MS,
    maximum: MAX_WINDOW_MS,
    example: 3_600_000,
    description:
      'The new window in milliseconds. A running cooldown now ends at its start plus this window (or now, if that has passed); later repetitions climb from it.',
  })
  @IsInt()
  @Min(MIN_WINDOW_MS)
  @Max(MAX_WINDOW_MS)
  windowMs: number;
}

export class SweepResultView {
  @ApiProperty({ type: 'integer', description: 'entries that had cooldowns removed' }) documents: number;
  @ApiProperty({ type: 'integer', description: 'cooldowns removed' }) removed: number;
}

export class DueForProbeQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'How many entries at most.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}
