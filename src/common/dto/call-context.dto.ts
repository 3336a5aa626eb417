import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { IsId } from './health-key.dto';

/** The caller's context (D6): every level optional, absent levels are skipped by the cascade. */
export class CallContextDto {
  @ApiPropertyOptional({
    nullable: true,
    pattern: ID_PATTERN.source,
    example: 's-7',
    description: 'The conversation (session) the call belongs to.',
  })
  @IsOptional()
  @IsId()
  sessionId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source, example: 'alice', description: 'The end user the call is made for.' })
  @IsOptional()
  @IsId()
  userId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source, example: 'p-1', description: 'The project the session belongs to.' })
  @IsOptional()
  @IsId()
  projectId?: string;

  @ApiPropertyOptional({
    nullable: true,
    pattern: ID_PATTERN.source,
    example: 'acme',
    description: 'The tenant (organisation) the project belongs to.',
  })
  @IsOptional()
  @IsId()
  tenantId?: string;
}
