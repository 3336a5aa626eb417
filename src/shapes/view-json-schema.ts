import { JsonSchema } from './dto-json-schema';
import { View, ViewValue, viewValuesOf } from './view-value';

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
  for (const { name, nullable, value } of viewValuesOf(view)) {
    const schema = valueSchema(value, required);
    properties[name] = nullable ? { anyOf: [schema, { type: 'null' }] } : schema;
  }
  const names = required(view);
  return { type: 'object', properties, ...(names.length > 0 ? { required: [...names] } : {}) };
}

function valueSchema(value: ViewValue, required: (view: View) => readonly string[]): JsonSchema {
  switch (value.kind) {
    case 'enum':
      return { type: 'string', enum: value.values };
    case 'array':
      return { type: 'array', items: valueSchema(value.items, required) };
    case 'string':
      return value.format === undefined ? { type: 'string' } : { type: 'string', format: value.format };
    case 'view':
      return viewJsonSchema(value.view, required);
    default:
      return { type: value.kind };
  }
}
