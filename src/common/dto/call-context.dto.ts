import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { ID_MESSAGE } from './health-key.dto';

/** The caller's context (D6): every level optional, absent levels are skipped by the cascade. */
export class CallContextDto {
  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `sessionId ${ID_MESSAGE}` })
  sessionId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `userId ${ID_MESSAGE}` })
  userId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `projectId ${ID_MESSAGE}` })
  projectId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `tenantId ${ID_MESSAGE}` })
  tenantId?: string;
}
