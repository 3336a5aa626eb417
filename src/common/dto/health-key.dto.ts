import { ApiProperty } from '@nestjs/swagger';
import { IsEnum, IsOptional, Matches, ValidationOptions } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope } from '../../domain/scope';

const ID_MESSAGE = 'must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -';

/** D3a: a tool name or scope id; the 400 names the property ("toolName must be 1-256 …"). */
export function IsId(options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return Matches(ID_PATTERN, { ...options, message: `$property ${ID_MESSAGE}` });
}

export class HealthKeyDto {
  @ApiProperty({
    enum: Scope,
    enumName: 'Scope',
    example: Scope.PROJECT,
    description: 'Who the entry is about: one session, user, project or tenant, or everyone (GLOBAL).',
  })
  @IsEnum(Scope)
  scope: Scope;

  @ApiProperty({
    type: String,
    nullable: true,
    required: true,
    example: 'p-1',
    description: 'The id of the session, user, project or tenant; null for GLOBAL.',
    pattern: ID_PATTERN.source,
  })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @ApiProperty({ pattern: ID_PATTERN.source, example: 'jira_search', description: 'The tool.' })
  @IsId()
  toolName: string;
}

export { ID_MESSAGE };

/** The key as query parameters: scopeId may be left out for GLOBAL (a query has no null). */
export class HealthKeyQueryDto extends HealthKeyDto {
  @ApiProperty({
    type: String,
    required: false,
    example: 'p-1',
    description: 'The id of the session, user, project or tenant; leave it out for GLOBAL.',
    pattern: ID_PATTERN.source,
  })
  declare scopeId?: string | null;
}
