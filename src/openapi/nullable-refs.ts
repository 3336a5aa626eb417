import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/**
 * OpenAPI 3.0 ignores the siblings of a `$ref`, so a nullable reference is written
 * `{nullable: true, allOf: [{$ref}]}`; 3.0.3 adds null only to a `type` declared beside
 * `nullable` (P141). @nestjs/swagger writes `type: object` there for a class but nothing for an enum, so
 * such a property was "nullable" without a type (Redocly's nullable-type-sibling error). This
 * gives each one the type of the schema it references. Mutates and returns the document.
 */
export function typeNullableReferences(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const typeOf = (ref: string): unknown => schemas[ref.replace('#/components/schemas/', '')]?.type;
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const schema = node as Node;
    const allOf = schema.allOf as Node[] | undefined;
    if (schema.nullable === true && schema.type === undefined && allOf?.length === 1 && typeof allOf[0].$ref === 'string') {
      const type = typeOf(allOf[0].$ref);
      if (type !== undefined) schema.type = type;
    }
    Object.values(schema).forEach(walk);
  };
  walk(document.components);
  walk(document.paths);
  return document;
}
