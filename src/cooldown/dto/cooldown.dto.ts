import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { HealthKeyDto, IsId } from '../../common/dto/health-key.dto';
import { ToolHealthClassification } from '../../domain/classification';
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

  @ApiPropertyOptional({ nullable: true, minimum: 1000, maximum: 30 * DAY_MS, description: 'explicit window; wins over the class default (D9)' })
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

export class SweepResultView {
  @ApiProperty({ description: 'documents that had entries removed' }) documents: number;
  @ApiProperty({ description: 'cooldown entries removed' }) removed: number;
}

export class DueForProbeQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}
