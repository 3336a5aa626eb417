import { ViewFieldOptions, viewFieldsOf } from './view-field';

export type View = new () => unknown;

/**
 * What one ViewField holds, read once for every artifact built from view classes: the JSON Schema
 * of an answer (view-json-schema.ts) and its compiled JSON writer (answer-json.ts).
 */
export type ViewValue =
  | { kind: 'enum'; values: string[] }
  | { kind: 'string'; format?: string }
  | { kind: 'boolean' }
  | { kind: 'integer' | 'number' }
  | { kind: 'array'; items: ViewValue }
  | { kind: 'view'; view: View };

/** The value of a field with these options, whose reflected TypeScript type is `reflected`. */
export function viewValueOf(options: ViewFieldOptions, reflected: unknown): ViewValue {
  const { enum: values, type = reflected, format } = options.openapi ?? {};
  if (values !== undefined)
    return { kind: 'enum', values: Array.isArray(values) ? [...(values as string[])] : Object.values(values as object) };
  if (Array.isArray(type)) return { kind: 'array', items: viewValueOf({ openapi: { type: type[0] as View } }, undefined) };
  if (type === String) return format === undefined ? { kind: 'string' } : { kind: 'string', format };
  if (type === Boolean) return { kind: 'boolean' };
  if (type === 'integer' || type === 'number') return { kind: type };
  if (typeof type === 'function' && viewFieldsOf(type as View).length > 0) return { kind: 'view', view: type as View };
  throw new Error(`no reading of ${String((type as { name?: string })?.name ?? type)} as a view's value`);
}

/** Each ViewField of a view class with what it holds, in the order viewFieldsOf gives. */
export function viewValuesOf(view: View): { name: string; nullable: boolean; value: ViewValue }[] {
  return viewFieldsOf(view).map(({ name, options }) => ({
    name,
    nullable: options.nullable ?? false,
    value: viewValueOf(options, Reflect.getMetadata('design:type', view.prototype as object, name)),
  }));
}
