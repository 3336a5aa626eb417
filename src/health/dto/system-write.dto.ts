import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { HealthKeyDto, IsId } from '../../common/dto/health-key.dto';
import { IsIsoDateTime } from '../../common/dto/iso-date-time';
import { ID_PATTERN } from '../../domain/health-key';
import { ToolErrorCode } from '../../domain/tool-error-code';

/** §7 first row: a binary event seen by system code. */
export class SystemWriteDto extends HealthKeyDto {
  @ApiProperty({ description: 'who saw it; stored as by: "system:<source>"', example: 'foot-gateway' })
  @IsId()
  source: string;

  @ApiPropertyOptional({ nullable: true, maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;

  @ApiPropertyOptional({
    nullable: true,
    description: 'the tenant the key belongs to, for its history limit (D12)',
    pattern: ID_PATTERN.source,
  })
  @IsOptional()
  @IsId()
  tenantId?: string;
}

export class MarkUnavailableDto extends SystemWriteDto {
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode' })
  @IsEnum(ToolErrorCode)
  code: ToolErrorCode;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time', description: 'when it went down; default now' })
  @IsOptional()
  @IsIsoDateTime()
  since?: Date;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  expectedRecoveryAt?: Date;
}

export class MarkIntermittentDto extends SystemWriteDto {
  @ApiPropertyOptional({ nullable: true, enum: ToolErrorCode, enumName: 'ToolErrorCode' })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  expectedRecoveryAt?: Date;
}

export class MarkAvailableDto extends SystemWriteDto {}
