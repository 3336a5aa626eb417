import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** A JSON Schema (draft-07 subset Ajv compiles). */
export type JsonSchema = Record<string, unknown>;

/** The schema of a DTO class and, per pattern source, the words its decorator uses for it. */
export interface DtoSchema {
  schema: JsonSchema;
  patternMessages: ReadonlyMap<string, string>;
}

/**
 * The JSON Schema of a class-validator DTO, read off its decorators, so that a route validated by
 * a compiled schema (`@SchemaBody`) keeps the one definition the class-validator routes and the
 * OpenAPI document use (P80). Only the decorators the DTOs use are understood; any other throws
 * when the schema is built (at startup), so the two readings can never silently disagree.
 * Optional (`@IsOptional`) properties accept null, as class-validator does; unknown properties
 * are refused, as the whitelisting pipe does.
 */
export function dtoJsonSchema(dto: new (...args: never[]) => unknown): DtoSchema {
  const patternMessages = new Map<string, string>();
  return { schema: objectSchema(dto, patternMessages), patternMessages };
}

/** One property as the decorators describe it: its constraints, where it is declared, whether it may be absent. */
export interface PropertyReading {
  name: string;
  /** The class whose decorators declared it (an ancestor for an inherited property). */
  declaredIn: ValidationMetadata['target'];
  optional: boolean;
  /** The constraints alone; an optional property is not yet made nullable. */
  schema: JsonSchema;
}

/**
 * The properties of a DTO class in the order class-validator keeps them (the class's own, then
 * its ancestors'). `dates`: read an RFC 3339 instant (`IsIsoDateTime`) as a date-time string,
 * which only a reading whose values stay JSON may do (P115); a compiled REST body would hand
 * the handler a string where the class-validator route hands it a Date, so it throws there.
 */
export function readProperties(
  dto: new (...args: never[]) => unknown,
  options: { dates?: boolean; patternMessages?: Map<string, string> } = {},
): PropertyReading[] {
  const { dates = false, patternMessages = new Map<string, string>() } = options;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metadatas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  return [...byProperty].map(([property, list]) => {
    const own: JsonSchema = {};
    const items: JsonSchema = {};
    for (const m of list) {
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) continue;
      const target = m.each ? items : own;
      if (m.type === ValidationTypes.NESTED_VALIDATION) {
        const nested = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction();
        if (typeof nested !== 'function') throw new Error(`dtoJsonSchema: ${dto.name}.${property} has @ValidateNested without @Type`);
        Object.assign(target, objectSchema(nested as new () => unknown, patternMessages));
        continue;
      }
      applyConstraint(target, m, `${dto.name}.${property}`, patternMessages, dates);
    }
    if (Object.keys(items).length > 0) own.items = items;
    return {
      name: property,
      declaredIn: list[0].target,
      optional: list.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION),
      schema: own,
    };
  });
}

function objectSchema(dto: new (...args: never[]) => unknown, patternMessages: Map<string, string>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const { name, optional, schema } of readProperties(dto, { patternMessages })) {
    properties[name] = optional ? nullable(schema) : schema;
    if (!optional) required.push(name);
  }
  return { type: 'object', additionalProperties: false, ...(required.length ? { required } : {}), properties };
}

function applyConstraint(
  target: JsonSchema,
  m: ValidationMetadata,
  where: string,
  patternMessages: Map<string, string>,
  dates: boolean,
): void {
  const [first] = (m.constraints ?? []) as unknown[];
  switch (m.name) {
    case 'isString':
      target.type = 'string';
      return;
    case 'isBoolean':
      target.type = 'boolean';
      return;
    case 'isInt':
      target.type = 'integer';
      return;
    case 'isArray':
      target.type = 'array';
      return;
    case 'min':
      target.minimum = first;
      return;
    case 'max':
      target.maximum = first;
      return;
    case 'maxLength':
      target.maxLength = first;
      return;
    case 'minLength':
      target.minLength = first;
      return;
    case 'arrayMaxSize':
      target.maxItems = first;
      return;
    case 'arrayMinSize':
      target.minItems = first;
      return;
    case 'isEnum':
      target.enum = Object.values(first as object);
      return;
    case 'isIn':
      target.enum = [...(first as unknown[])];
      return;
    case 'isDate':
      if (!dates) break;
      target.type = 'string';
      target.format = 'date-time';
      return;
    case 'matches': {
      const source = first instanceof RegExp ? first.source : String(first);
      target.type ??= 'string';
      target.pattern = source;
      // "$property must be …" → "must be …": the 400 names the field separately.
      if (typeof m.message === 'string') patternMessages.set(source, m.message.replace(/^\$property\s+/, ''));
      return;
    }
  }
  throw new Error(`dtoJsonSchema: ${where} uses @${m.name ?? m.type}, which has no JSON Schema reading here`);
}

/** The schema, also accepting null (an @IsOptional property). */
function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return schema;
}
