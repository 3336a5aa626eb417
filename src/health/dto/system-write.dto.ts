import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsEnum, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { HealthKeyDto, ID_MESSAGE } from '../../common/dto/health-key.dto';
import { ID_PATTERN } from '../../domain/health-key';
import { ToolErrorCode } from '../../domain/tool-error-code';

/** §7 first row: a binary event seen by system code. */
export class SystemWriteDto extends HealthKeyDto {
  @ApiProperty({ description: 'who saw it; stored as by: "system:<source>"', example: 'foot-gateway' })
  @Matches(ID_PATTERN, { message: `source ${ID_MESSAGE}` })
  source: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;

  @ApiPropertyOptional({ description: 'the tenant the key belongs to, for its history limit (D12)', pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `tenantId ${ID_MESSAGE}` })
  tenantId?: string;
}

export class MarkUnavailableDto extends SystemWriteDto {
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode' })
  @IsEnum(ToolErrorCode)
  code: ToolErrorCode;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'when it went down; default now' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  since?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  expectedRecoveryAt?: Date;
}

export class MarkIntermittentDto extends SystemWriteDto {
  @ApiPropertyOptional({ enum: ToolErrorCode, enumName: 'ToolErrorCode' })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode;

  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  expectedRecoveryAt?: Date;
}

export class MarkAvailableDto extends SystemWriteDto {}
