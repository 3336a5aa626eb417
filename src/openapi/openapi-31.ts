import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/** The OpenAPI version the service serves (D28, P240). */
export const OPENAPI_VERSION = '3.1.0';

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SUBSCHEMA_ONE = ['items', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs'] as const;

/**
 * One schema written by @nestjs/swagger (OpenAPI 3.0) as OpenAPI 3.1 says it (JSON Schema
 * 2020-12), and its subschemas. Mutates and returns it.
 * - `nullable: true` becomes null among the allowed types: `type: [X, 'null']` (and null among an
 *   `enum`'s values) for a typed schema; `anyOf: [{$ref}, {type: 'null'}]` for a reference, which
 *   3.0 could only write as `{nullable: true, allOf: [{$ref}]}` — a form in which, read strictly,
 *   null still has to satisfy the referenced schema, and which openapi-python-client reads as not
 *   nullable at all (P240).
 * - `example` (deprecated in 3.1) becomes `examples: [value]`. Swagger UI shows a schema's
 *   `examples` but fills a parameter's input only from `example`, so an optional query parameter
 *   is no longer sent with a made-up value by a caller who leaves the field alone (P241).
 */
export function schemaTo31(schema: Node): Node {
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(schema[key])) (schema[key] as Node[]).forEach((s) => schemaTo31(s));
  for (const key of SUBSCHEMA_ONE) if (isObject(schema[key])) schemaTo31(schema[key] as Node);
  for (const key of SUBSCHEMA_MAPS)
    if (isObject(schema[key])) for (const s of Object.values(schema[key] as Record<string, Node>)) if (isObject(s)) schemaTo31(s);

  if ('example' in schema) {
    if (schema.examples === undefined) schema.examples = [schema.example];
    delete schema.example;
  }
  if (!('nullable' in schema)) return schema;
  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return schema;

  const allOf = schema.allOf as Node[] | undefined;
  if (allOf?.length === 1 && typeof allOf[0].$ref === 'string') {
    // The type beside the reference only existed for 3.0's nullable; the reference says it.
    delete schema.type;
    delete schema.allOf;
    schema.anyOf = [allOf[0], { type: 'null' }];
  } else if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  } else if (Array.isArray(schema.type)) {
    if (!schema.type.includes('null')) schema.type = [...(schema.type as string[]), 'null'];
  } else {
    // Any other shape (a composition without a type): null as one more alternative.
    const inner: Node = {};
    for (const key of Object.keys(schema)) {
      if (key === 'description' || key === 'examples' || key === 'title' || key === 'deprecated') continue;
      inner[key] = schema[key];
      delete schema[key];
    }
    schema.anyOf = [inner, { type: 'null' }];
  }
  return schema;
}

function isObject(value: unknown): value is Node {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** A parameter's or a header's own `example` moves into its schema's `examples` (see schemaTo31). */
function exampleIntoSchema(holder: Node): void {
  if (!('example' in holder)) return;
  const schema = isObject(holder.schema) ? holder.schema : undefined;
  if (schema && schema.examples === undefined && schema.example === undefined) schema.examples = [holder.example];
  delete holder.example;
}

/**
 * Swagger UI shows a parameter's description but not its schema's `examples`: the example is
 * said in words there too, so a person sees it without it being filled in (P241).
 */
function sayExample(parameter: Node): void {
  const examples = (parameter.schema as Node | undefined)?.examples;
  if (!Array.isArray(examples) || examples.length === 0) return;
  const said = `Example: \`${typeof examples[0] === 'string' ? examples[0] : JSON.stringify(examples[0])}\`.`;
  const description = typeof parameter.description === 'string' ? parameter.description.trim() : '';
  if (!description.includes(said)) parameter.description = description ? `${description.replace(/\.?$/, '.')} ${said}` : said;
}

/**
 * The document @nestjs/swagger builds (OpenAPI 3.0.0) as OpenAPI 3.1.0 (D28, P240): every schema
 * through schemaTo31 — the components' and those of parameters, headers, request bodies and
 * answers. Nothing else in this document differs between the two versions. Mutates and returns it.
 */
export function openApi31(document: OpenAPIObject): OpenAPIObject {
  (document as { openapi: string }).openapi = OPENAPI_VERSION;
  // A media type keeps its own `example` (3.1 has it too, and Swagger UI shows it as the example answer or body).
  const withSchemas = (holder: unknown, kind: 'parameter' | 'header' | 'media' | 'body' | 'answer'): void => {
    if (!isObject(holder)) return;
    if (kind === 'parameter' || kind === 'header') exampleIntoSchema(holder);
    if (isObject(holder.schema)) schemaTo31(holder.schema);
    if (kind === 'parameter') sayExample(holder);
    if (isObject(holder.content)) for (const media of Object.values(holder.content)) withSchemas(media, 'media');
    if (isObject(holder.headers)) for (const header of Object.values(holder.headers)) withSchemas(header, 'header');
  };
  const components = document.components as Node | undefined;
  for (const schema of Object.values((components?.schemas ?? {}) as Record<string, Node>)) schemaTo31(schema);
  const kinds = { parameters: 'parameter', headers: 'header', requestBodies: 'body', responses: 'answer' } as const;
  for (const [key, kind] of Object.entries(kinds))
    for (const holder of Object.values((components?.[key] ?? {}) as Record<string, Node>)) withSchemas(holder, kind);
  for (const item of Object.values((document.paths ?? {}) as Record<string, Node>)) {
    for (const parameter of (item.parameters ?? []) as Node[]) withSchemas(parameter, 'parameter');
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      for (const parameter of (operation.parameters ?? []) as Node[]) withSchemas(parameter, 'parameter');
      withSchemas(operation.requestBody, 'body');
      for (const answer of Object.values((operation.responses ?? {}) as Record<string, Node>)) withSchemas(answer, 'answer');
    }
  }
  return document;
}
