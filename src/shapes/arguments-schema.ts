import { applyDecorators } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import { JsonSchema, readProperties } from './dto-json-schema';

const DESCRIPTION = Symbol('argument description');

/**
 * One argument of a tool an LLM calls (P115): its description for the model, and whether it may
 * be left out. The constraints are the class-validator decorators beside it (IsId, IsEnum,
 * MaxLength …), the same ones the REST DTOs carry; argumentsSchema reads both.
 */
export function ArgumentField(description?: string, options: { optional?: boolean } = {}): PropertyDecorator {
  const described: PropertyDecorator = (target, key) => Reflect.defineMetadata(DESCRIPTION, description, target, key);
  return options.optional ? applyDecorators(described, IsOptional()) : described;
}

// The order a property's keywords are written in: what it is, what it allows, then what it means.
const KEYWORD_ORDER = ['type', 'format', 'pattern', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'items', 'description'];

/**
 * The JSON Schema of a tool's arguments class (P115): what the tool publishes to the model, what
 * Ajv validates invocations with and what OpenAPI shows. The arguments an LLM writes differ from a
 * REST body in three ways: an optional argument is left out, never null (so it is not nullable);
 * an instant is an RFC 3339 string that stays a string; and each property carries its description
 * (from ArgumentField). Inherited properties come first (the key before the verdict), and the
 * keywords in one order, so the text the model reads is stable.
 */
export function argumentsSchema(dto: new (...args: never[]) => unknown): JsonSchema {
  const depth = (declaredIn: unknown) => chainOf(dto).indexOf(declaredIn as object);
  const read = readProperties(dto, { dates: true }).sort((a, b) => depth(b.declaredIn) - depth(a.declaredIn));
  const properties: Record<string, JsonSchema> = {};
  for (const { name, schema } of read) {
    const description = Reflect.getMetadata(DESCRIPTION, dto.prototype, name) as string | undefined;
    const enumOfStrings = Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string');
    properties[name] = ordered({ ...(enumOfStrings ? { type: 'string' } : {}), ...schema, ...(description ? { description } : {}) });
  }
  const required = read.filter((p) => !p.optional).map((p) => p.name);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The class and its ancestors, the class first. */
function chainOf(dto: object): object[] {
  const chain: object[] = [];
  for (let c: object | null = dto; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null) chain.push(c);
  return chain;
}

function ordered(schema: JsonSchema): JsonSchema {
  const rank = (key: string) => (KEYWORD_ORDER.includes(key) ? KEYWORD_ORDER.indexOf(key) : KEYWORD_ORDER.length);
  return Object.fromEntries(Object.entries(schema).sort(([a], [b]) => rank(a) - rank(b)));
}
