import { applyDecorators } from '@nestjs/common';
import { Field, FieldOptions, ReturnTypeFunc } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

export interface ShapeFieldOptions {
  /** The GraphQL type where TypeScript's reflected type does not tell it: an enum, Int or Float, a nullable field. */
  type?: ReturnTypeFunc;
  /** The field may be absent or null: @IsOptional(), a nullable GraphQL field, an optional nullable OpenAPI property. */
  optional?: boolean;
  /** What OpenAPI says beyond the description: enum, pattern, format, example, integer bounds (overrides the defaults). */
  openapi?: ApiPropertyOptions;
}

/**
 * One property of a request shape, described once for both contracts (P112): the GraphQL field
 * (@nestjs/graphql) and the OpenAPI property (@nestjs/swagger) get the same description, and an
 * optional field is optional in all three readings (validation, GraphQL, OpenAPI) at once. The
 * other class-validator decorators stay beside it: they carry the 400 messages.
 */
export function ShapeField(description: string, options: ShapeFieldOptions = {}): PropertyDecorator {
  const { type, optional = false, openapi = {} } = options;
  const field: FieldOptions = optional ? { description, nullable: true } : { description };
  const property = { description, ...(optional ? { required: false, nullable: true } : {}), ...openapi } as ApiPropertyOptions;
  const decorators = [type ? Field(type, field) : Field(field), ApiProperty(property)];
  return applyDecorators(...(optional ? [IsOptional(), ...decorators] : decorators));
}
