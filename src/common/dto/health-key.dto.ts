import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, Matches, ValidationOptions } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope } from '../../domain/scope';

const ID_MESSAGE = 'must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -';

/** D3a: a tool name or scope id; the 400 names the property ("toolName must be 1-256 …"). */
export function IsId(options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return Matches(ID_PATTERN, { ...options, message: `$property ${ID_MESSAGE}` });
}

export class HealthKeyDto {
  @ApiProperty({ enum: Scope, enumName: 'Scope' })
  @IsEnum(Scope)
  scope: Scope;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null for GLOBAL, required otherwise (D6)', pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @ApiProperty({ pattern: ID_PATTERN.source, example: 'mcp_search' })
  @IsId()
  toolName: string;
}

export { ID_MESSAGE };
