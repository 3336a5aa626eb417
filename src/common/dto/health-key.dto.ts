import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, Matches } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope } from '../../domain/scope';

const ID_MESSAGE = 'must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -';

export class HealthKeyDto {
  @ApiProperty({ enum: Scope, enumName: 'Scope' })
  @IsEnum(Scope)
  scope: Scope;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null for GLOBAL, required otherwise (D6)', pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `scopeId ${ID_MESSAGE}` })
  scopeId?: string | null;

  @ApiProperty({ pattern: ID_PATTERN.source, example: 'mcp_search' })
  @Matches(ID_PATTERN, { message: `toolName ${ID_MESSAGE}` })
  toolName: string;
}

export { ID_MESSAGE };
