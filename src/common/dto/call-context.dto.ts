import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { IsId } from './health-key.dto';

/** The caller's context (D6): every level optional, absent levels are skipped by the cascade. */
export class CallContextDto {
  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  sessionId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  userId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  projectId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  tenantId?: string;
}
