import { JsonSchema } from './dto-json-schema';
import { ViewFieldOptions, viewFieldsOf } from './view-field';

type View = new () => unknown;

/**
 * The JSON Schema of a view class's JSON form (P115), read off its ViewFields: what the OpenAPI
 * document says of the same class, written as plain JSON Schema (a nullable property is an
 * `anyOf` with null, an instant a date-time string). For clients that validate answers, such as
 * MCP's outputSchema (P72); `required` says which properties each view must carry (the rest are
 * described but may be missing), and other properties are allowed. No descriptions: they are in
 * the OpenAPI document and the GraphQL schema, and would make tools/list several times longer.
 */
export function viewJsonSchema(view: View, required: (view: View) => readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const { name, options } of viewFieldsOf(view)) {
    const schema = valueSchema(options, Reflect.getMetadata('design:type', view.prototype as object, name), required);
    properties[name] = options.nullable ? { anyOf: [schema, { type: 'null' }] } : schema;
  }
  const names = required(view);
  return { type: 'object', properties, ...(names.length > 0 ? { required: [...names] } : {}) };
}

function valueSchema(options: ViewFieldOptions, reflected: unknown, required: (view: View) => readonly string[]): JsonSchema {
  const { enum: values, type = reflected, format } = options.openapi ?? {};
  if (values !== undefined) return { type: 'string', enum: Array.isArray(values) ? [...values] : Object.values(values as object) };
  if (Array.isArray(type)) return { type: 'array', items: valueSchema({ openapi: { type: type[0] as View } }, undefined, required) };
  if (type === String) return format === undefined ? { type: 'string' } : { type: 'string', format };
  if (type === Boolean) return { type: 'boolean' };
  if (type === 'integer' || type === 'number') return { type };
  if (typeof type === 'function' && viewFieldsOf(type as View).length > 0) return viewJsonSchema(type as View, required);
  throw new Error(`viewJsonSchema: no JSON Schema reading of ${String((type as { name?: string })?.name ?? type)}`);
}
