import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

type Node = Record<string, unknown>;

const REF = '#/components/schemas/';

/** Every component schema a request body reaches, by name. */
function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    for (const [key, value] of Object.entries(node as Node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF)) {
        const name = value.slice(REF.length);
        if (!found.has(name)) {
          found.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  for (const item of Object.values(document.paths ?? {}))
    for (const operation of Object.values(item as Node)) visit((operation as Node | undefined)?.requestBody);
  return found;
}

interface FieldRules {
  minItems?: number;
  /** The pattern every item must match (`@Matches(…, { each: true })`, e.g. `@IsId({ each: true })`). */
  itemPattern?: string;
  /** The pattern a string must match (`@Matches`, e.g. `@IsId()`). */
  pattern?: string;
}

/** What class-validator enforces on each array property of a request class, by class name. */
function arrayRules(): Map<string, Map<string, FieldRules>> {
  const byClass = new Map<string, Map<string, FieldRules>>();
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<{ name: string }, { propertyName: string; name?: string; each?: boolean; constraints?: unknown[] }[]>;
  };
  const lineage = (target: object): object[] => {
    const chain: object[] = [];
    for (let c: object | null = target; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null) chain.push(c);
    return chain;
  };
  for (const target of storage.validationMetadatas.keys()) {
    // a class's own rules and its ancestors' (a shape inherits its parent's validated fields)
    const metadatas = lineage(target).flatMap((c) => storage.validationMetadatas.get(c as { name: string }) ?? []);
    for (const m of metadatas) {
      const own = byClass.get(target.name) ?? new Map<string, FieldRules>();
      const rules = own.get(m.propertyName) ?? {};
      if (m.name === 'arrayMinSize' && typeof m.constraints?.[0] === 'number') rules.minItems = m.constraints[0];
      else if (m.name === 'matches' && m.constraints?.[0] instanceof RegExp)
        rules[m.each ? 'itemPattern' : 'pattern'] = m.constraints[0].source;
      else continue;
      own.set(m.propertyName, { ...own.get(m.propertyName), ...rules });
      byClass.set(target.name, own);
    }
  }
  return byClass;
}

/**
 * A request shape says in the document what the validator enforces, so a schema-valid
 * request is never refused for a reason the schema hides: every object a request body reaches is
 * `additionalProperties: false` (the validation pipe and the hot routes' compiled schemas refuse
 * unknown properties with a 400 naming them), an array the validator wants non-empty carries
 * its `minItems`, and an id (or an array of ids) its pattern (P142). A default is said in the field's description instead of the `default` keyword:
 * openapi-typescript 7 (like other generators) makes a component property with a `default`
 * required, so a valid request without it would not type-check (the field is optional, and
 * never in `required`). Mutates and returns the document.
 */
export function documentRequestShapes(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const rules = arrayRules();
  for (const name of requestSchemaNames(document)) {
    const schema = schemas[name];
    if (schema?.type !== 'object') continue;
    schema.additionalProperties ??= false;
    for (const field of Object.values((schema.properties ?? {}) as Record<string, Node>)) {
      if (field.default === undefined) continue;
      const said = `Default: \`${JSON.stringify(field.default)}\` (when absent or null).`;
      field.description = typeof field.description === 'string' ? `${field.description.replace(/\.?$/, '.')} ${said}` : said;
      delete field.default;
    }
    for (const [property, { minItems, itemPattern, pattern }] of rules.get(name) ?? []) {
      const field = (schema.properties as Record<string, Node> | undefined)?.[property];
      if (field?.type === 'string' && pattern !== undefined) field.pattern ??= pattern;
      if (field?.type !== 'array') continue;
      if (minItems !== undefined) field.minItems ??= minItems;
      const items = field.items as Node | undefined;
      if (itemPattern !== undefined && items && items.type === 'string') items.pattern ??= itemPattern;
    }
  }
  return document;
}
