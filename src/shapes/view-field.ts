import { applyDecorators } from '@nestjs/common';
import { Field, FieldOptions, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { ShapeFieldOptions } from './shape-field';

/** ShapeField's `type` and `openapi`; an answer's field is not optional but may be null. */
export interface ViewFieldOptions extends Pick<ShapeFieldOptions, 'type' | 'openapi'> {
  /** The field may be null: a nullable GraphQL field and a nullable OpenAPI property. */
  nullable?: boolean;
}

/**
 * One property of an answer shape, described once for both contracts (P115): the GraphQL field
 * and the OpenAPI property get the same description and the same nullability. The output-side
 * analogue of ShapeField (P112), without validation: the service writes these, nobody sends them.
 */
export function ViewField(description: string, options: ViewFieldOptions = {}): PropertyDecorator {
  const { type, nullable = false, openapi = {} } = options;
  const field: FieldOptions = nullable ? { description, nullable: true } : { description };
  const property = { description, ...openapi, ...(nullable ? { nullable: true } : {}) } as ApiPropertyOptions;
  const recorded: PropertyDecorator = (target, name) =>
    Reflect.defineMetadata(VIEW_FIELDS, [...ownViewFields(target), { name: String(name), options }], target);
  return applyDecorators(type ? Field(type, field) : Field(field), ApiProperty(property), recorded);
}

const VIEW_FIELDS = Symbol('view fields');

export interface ViewFieldReading {
  name: string;
  options: ViewFieldOptions;
}

function ownViewFields(prototype: object): ViewFieldReading[] {
  return (Reflect.getOwnMetadata(VIEW_FIELDS, prototype) as ViewFieldReading[] | undefined) ?? [];
}

/** The ViewFields of a view class, its ancestors' first, each in the order declared (for view-json-schema.ts). */
export function viewFieldsOf(view: new () => unknown): ViewFieldReading[] {
  const chain: object[] = [];
  for (let p: object | null = view.prototype as object; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null)
    chain.unshift(p);
  return chain.flatMap(ownViewFields);
}

/**
 * An answer shape in both contracts: a GraphQL object type named `name` (the OpenAPI schema keeps
 * the class's name), with one description for both.
 */
export function ViewType(name: string, description: string, implementsTypes?: () => (abstract new () => unknown)[]): ClassDecorator {
  return applyDecorators(ObjectType(name, { description, implements: implementsTypes }), ApiSchema({ description }));
}

/** An instant: a DateTime in GraphQL, an RFC 3339 string (`date-time`) in OpenAPI. */
export const INSTANT: ViewFieldOptions = { type: () => Date, openapi: { type: String, format: 'date-time' } };

/** A string that may be null (TypeScript's reflected type of `string | null` tells neither contract). */
export const NULLABLE_STRING: ViewFieldOptions = { type: () => String, nullable: true, openapi: { type: String } };

/** A registered enum, under the same name in both contracts. */
export function enumView(values: object, name: string): ViewFieldOptions {
  return { type: () => values, openapi: { enum: values, enumName: name } };
}
