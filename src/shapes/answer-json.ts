import { carriedArrayText } from './carried-array-text';
import { instantToJson } from './instant-json';
import { View, ViewValue, viewValuesOf } from './view-value';

/**
 * An answer's JSON text, made by code built once from the answer's shape (P353): the value is
 * copied into plain objects holding only the shape's properties, in the order it declares them,
 * with each instant already the text its toJSON would give; JSON.stringify writes the copy. The
 * text is what JSON.stringify writes for the value itself, less what the shape lacks, at about half
 * the cost for answers that carry many instants: V8 writes a Date in JSON in ~0.7 µs, and a bulk
 * write's answer holds ~5 000 of them. Writing the text in JavaScript instead was slower than
 * JSON.stringify: its many small concatenations cost more to build and flatten than they saved.
 */
export type AnswerJson<T> = ((value: T) => string) & {
  /**
   * For an answer written as text pieces: the writer of its pieces, for a caller that puts them
   * together itself (a large answer goes to the socket as bytes made from them, P372).
   */
  readonly pieces?: TextWriter<T>;
};

/**
 * What part of an answer becomes before JSON.stringify writes it; undefined is left out, as JSON
 * does. A part that `writesText` writes its JSON text instead (see TextWriter), and the parts that
 * hold it are written as text around it (see objectPart).
 */
export type AnswerPart<T> = ((value: T, out: string[]) => unknown) & { readonly writesText?: true; readonly neverChangedInPlace?: true };

/**
 * Writes a value's JSON text as pieces pushed onto `out`, joined once for the whole answer (P358):
 * texts put together by concatenation are trees that V8 copies into one run again at each step up
 * and once more when the answer's length is taken. False, with nothing pushed, for a value JSON
 * leaves out.
 */
export type TextWriter<T> = (value: T, out: string[]) => boolean;

/** A part whose value is written as JSON text. */
function textPart<T>(write: TextWriter<T>): AnswerPart<T> {
  return Object.assign(write, { writesText: true as const });
}

/**
 * What parts of an answer with no text part are given for `out`: they never write text (a part
 * holding one writes text itself), and frozen, a push would throw instead of going astray.
 */
const NO_PIECES = Object.freeze([]) as unknown as string[];

/** The text JSON.stringify writes, as one piece. */
function pushJson(value: unknown, out: string[]): boolean {
  const text = JSON.stringify(value);
  if (text === undefined) return false;
  out.push(text);
  return true;
}

const writesText = (part: AnswerPart<never>): boolean => part.writesText === true;

/** A part written as it is: strings, numbers, enums, booleans, and parts of no declared shape. */
export const asIs: AnswerPart<unknown> = (value) => value;

/** An instant as the text its toJSON gives; anything else in its place as it is. */
const instant: AnswerPart<unknown> = (value) => (value instanceof Date ? instantToJson(value) : value);

/** The JSON text of a value whose parts `plain` prepares. */
export function answerJson<T>(plain: AnswerPart<T>): AnswerJson<T> {
  if (writesText(plain)) {
    const write = plain as TextWriter<T>;
    const text = (value: T) => {
      const out: string[] = [];
      return write(value, out) ? out.join('') : 'null';
    };
    return Object.assign(text, { pieces: write });
  }
  return (value) => JSON.stringify(plain(value, NO_PIECES)) ?? 'null';
}

/** An array, each item prepared by `item` (as text when the item is: a missing item as null, as JSON writes it). */
export function arrayPart<T>(item: AnswerPart<T>): AnswerPart<readonly T[]> {
  if (item.neverChangedInPlace) {
    const write = carriedArrayText(answerJson(item));
    return textPart((value: readonly T[], out) => {
      if (!Array.isArray(value)) return pushJson(value, out);
      out.push(write(value));
      return true;
    });
  }
  if (writesText(item)) {
    const write = item as TextWriter<T>;
    return textPart((value: readonly T[], out) => {
      if (!Array.isArray(value)) return pushJson(value, out);
      out.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push(',');
        if (!write(value[i], out)) out.push('null');
      }
      out.push(']');
      return true;
    });
  }
  return (value, out) => (Array.isArray(value) ? value.map((element: T) => item(element, out)) : value);
}

/** Every property of T, each with how it is prepared: the compiler names one left out. */
export type PartsOf<T> = { [K in keyof T]-?: AnswerPart<NonNullable<T[K]>> };

/**
 * An object with these properties, in this order, each prepared by its part. A value that is not
 * such an object (null, an array, one with its own toJSON) is left for JSON.stringify as it is.
 *
 * The copy is generated code, one object literal reading each property by its literal name, as
 * fast-json-stringify does: V8 then builds every copy with one hidden class and reads each property
 * at a known place. The names enter the code only as JSON string literals and the parts as an
 * argument, so the generated function runs nothing but this file's code.
 */
export function objectPart<T extends object>(parts: PartsOf<T>): AnswerPart<T> {
  const names = Object.keys(parts);
  const prepare = names.map((name) => parts[name as keyof T] as AnswerPart<unknown>);
  const copy = (indexes: number[]) =>
    `{\n${indexes
      .map((i) => {
        const key = JSON.stringify(names[i]);
        return prepare[i] === asIs ? `${key}: v[${key}]` : `${key}: p[${i}](v[${key}], out)`;
      })
      .join(',\n')}\n}`;
  const notAnObject = `typeof v !== 'object' || v === null || Array.isArray(v) || typeof v.toJSON === 'function'`;
  if (!prepare.some(writesText)) {
    const body = `if (${notAnObject}) return v;\nreturn ${copy(names.map((_, i) => i))};`;
    const build = new Function('p', `return function plainCopy(v, out) {\n${body}\n};`) as (p: AnswerPart<unknown>[]) => AnswerPart<T>;
    return build(prepare);
  }
  // A property given as text is written after the ones before it and before the ones after it: each
  // run of the others is a plain copy JSON.stringify writes, its braces taken off. `any` tells
  // whether a property has been written, so the next one is preceded by a comma.
  const steps: string[] = [];
  let run: number[] = [];
  const endRun = () => {
    if (run.length > 0)
      steps.push(`s = JSON.stringify(${copy(run)});\nif (s.length > 2) { if (any) out.push(','); out.push(s.slice(1, -1)); any = true; }`);
    run = [];
  };
  prepare.forEach((part, i) => {
    if (!writesText(part)) return void run.push(i);
    endRun();
    const key = JSON.stringify(names[i]);
    const label = JSON.stringify(`${key}:`);
    // Left out (undefined): what was pushed for its label is taken back.
    steps.push(
      `mark = out.length;\nout.push(any ? ',' + ${label} : ${label});\nif (p[${i}](v[${key}], out)) any = true; else out.length = mark;`,
    );
  });
  endRun();
  const body = `if (${notAnObject}) return json(v, out);\nlet any = false, s, mark;\nout.push('{');\n${steps.join('\n')}\nout.push('}');\nreturn true;`;
  const build = new Function('p', 'json', `return function objectText(v, out) {\n${body}\n};`) as (
    p: AnswerPart<unknown>[],
    json: typeof pushJson,
  ) => TextWriter<T>;
  return textPart(build(prepare, pushJson));
}

/**
 * Views whose values are never changed once made. A history item is made once and then carried, by
 * identity, from version to version of its entry (P355), and the documents a process keeps between
 * writes (P354) keep them: an array of such values is written from the text of the array it was
 * made from (P356).
 */
const unchangedViews = new WeakSet<View>();

/** Marks a view whose values are never changed in place: arrays of them are written from earlier text (P356). */
export function valuesNeverChangedInPlace(view: View): void {
  unchangedViews.add(view);
}

/** A part whose values are never changed in place. */
function neverChangedInPlace<T>(part: AnswerPart<T>): AnswerPart<T> {
  return Object.assign(part, { neverChangedInPlace: true as const });
}

const compiled = new WeakMap<View, AnswerPart<unknown>>();

/** How a view class's value is prepared, built once from its ViewFields (the shape OpenAPI and GraphQL read). */
export function viewPart<T>(view: new () => T): AnswerPart<T> {
  let part = compiled.get(view);
  if (!part) {
    // Views are trees (as viewJsonSchema reads them too): a view's parts are built before it.
    const parts = Object.fromEntries(viewValuesOf(view).map(({ name, value }) => [name, valuePart(value)]));
    part = objectPart(parts as PartsOf<object>) as AnswerPart<unknown>;
    if (unchangedViews.has(view)) part = neverChangedInPlace(part);
    compiled.set(view, part);
  }
  return part as AnswerPart<T>;
}

/** The JSON text of a view class's value. */
export function viewJson<T>(view: new () => T): AnswerJson<T> {
  return answerJson(viewPart(view));
}

function valuePart(value: ViewValue): AnswerPart<unknown> {
  switch (value.kind) {
    case 'string':
      return value.format === 'date-time' ? instant : asIs;
    case 'array':
      return arrayPart(valuePart(value.items)) as AnswerPart<unknown>;
    case 'view':
      return viewPart(value.view) as AnswerPart<unknown>;
    default:
      return asIs;
  }
}
