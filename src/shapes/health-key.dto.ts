import { InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { IsEnum, Matches, ValidationOptions } from 'class-validator';
import { Scope } from './enums.registration';
import { ID_PATTERN } from '../domain/health-key';
import { ShapeField, ShapeFieldOptions } from './shape-field';

const ID_MESSAGE = 'must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -';

/** A tool name or scope id; the 400 names the property ("toolName must be 1-256 …") (D3a). */
export function IsId(options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return Matches(ID_PATTERN, { ...options, message: `$property ${ID_MESSAGE}` });
}

/**
 * A shape's id property (P112): validated by IsId, a string matching ID_PATTERN in OpenAPI, a
 * String in GraphQL; `optional` as in ShapeField.
 */
export function IdField(
  description: string,
  options: { optional?: boolean; example?: string; openapi?: ShapeFieldOptions['openapi'] } = {},
) {
  const { optional = false, example, openapi } = options;
  return applyDecorators(
    ShapeField(description, {
      type: () => String,
      optional,
      openapi: { type: String, pattern: ID_PATTERN.source, ...(example === undefined ? {} : { example }), ...openapi },
    }),
    IsId(),
  );
}

/**
 * The key of a health document (§5); GLOBAL has no scopeId, every other scope needs one (D6).
 * The one definition of the shape (P112): the REST body, and through HealthKeyInput and
 * HealthKeyArgs the GraphQL input and arguments.
 */
@InputType({ isAbstract: true })
export class HealthKeyDto {
  @ShapeField('Who the entry is about: one session, user, project or tenant, or everyone (GLOBAL).', {
    type: () => Scope,
    openapi: { enum: Scope, enumName: 'Scope', example: Scope.PROJECT },
  })
  @IsEnum(Scope)
  scope: Scope;

  // Optional to the validators (GLOBAL has none), yet listed as required in OpenAPI: a body sends it, null for GLOBAL.
  @IdField('The id of the session, user, project or tenant; null for GLOBAL.', {
    optional: true,
    example: 'example-project',
    openapi: { required: true },
  })
  scopeId?: string | null;

  @IdField('The tool, e.g. "jira_search".', { example: 'example-tool' })
  toolName: string;
}

export { ID_MESSAGE };

/** The key as query parameters: scopeId may be left out for GLOBAL (a query has no null). */
export class HealthKeyQueryDto extends HealthKeyDto {
  @ApiProperty({
    type: String,
    required: false,
    example: 'example-project',
    description: 'The id of the session, user, project or tenant; leave it out for GLOBAL.',
    pattern: ID_PATTERN.source,
  })
  declare scopeId?: string | null;
}
