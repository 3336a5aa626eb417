import { DomainError, DomainErrorCode } from '../domain/domain-error';

/**
 * P63: the one JSON body parser. Deeper nesting than this is refused before any validator sees
 * the body (class-validator and class-transformer recurse: ~5 000 levels were a 500).
 */
export const MAX_JSON_DEPTH = 32;

/** Keys no request field has, refused because they reach object prototypes in careless code. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** "context.userId", "errorSignatures[3]": the field names the validators report. */
function pathOf(stack: readonly (string | number)[]): string {
  return stack.reduce<string>((path, part) => (typeof part === 'number' ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/**
 * The content type a JSON route accepts: `application/json`, with no charset or UTF-8 (RFC 8259
 * §8.1: JSON exchanged between systems is UTF-8). Another charset is a 415 naming
 * `content-type` (a `charset=utf-16` body was read as UTF-8).
 */
export function checkJsonCharset(contentType: string | undefined): void {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  if (match && !/^utf-?8$/i.test(match[1])) {
    throw new DomainError(
      DomainErrorCode.UNSUPPORTED_MEDIA_TYPE,
      `content-type: charset ${match[1]} is not supported; send UTF-8 JSON`,
      'content-type',
    );
  }
}

/**
 * Parses a JSON request body. Syntax errors, nesting deeper than MAX_JSON_DEPTH, duplicate keys
 * (`"scope":"GLOBAL",…,"scope":"USER"` silently wrote USER) and `__proto__` / `constructor` /
 * `prototype` keys are each a 400 INVALID_ARGUMENT whose message and `field` name the place.
 * JSON.parse builds the value (fast, native); one linear scan of the text checks the rest.
 */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (text.trim() === '') {
    throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, 'body: empty; send a JSON object (or no content-type without a body)', 'body');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `body: not valid JSON (${(error as Error).message})`, 'body');
  }
  if (value !== null && typeof value === 'object') checkStructure(text, maxDepth);
  return value;
}

interface Frame {
  /** Keys seen so far (objects only). */
  keys?: Set<string>;
  /** Next element index (arrays only). */
  index: number;
  /** The member key or element index being read: one segment of the path. */
  current?: string | number;
}

/** One pass over text JSON.parse accepted: depth, duplicate and forbidden keys, with their paths. */
function checkStructure(text: string, maxDepth: number): void {
  const frames: Frame[] = [];
  let expectKey = false;
  let expectValue = true;
  const fieldOf = () => pathOf(frames.filter((f) => f.current !== undefined).map((f) => f.current!)) || 'body';
  /** A value starts: in an array, it is the next element. */
  const valueStarts = () => {
    const top = frames[frames.length - 1];
    if (top && !top.keys) top.current = top.index++;
    expectValue = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue;
    if (c === 0x22 /* " */) {
      const start = i + 1;
      i = closingQuote(text, start);
      if (!expectKey) {
        valueStarts();
        continue;
      }
      const raw = text.slice(start, i);
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      const top = frames[frames.length - 1];
      top.current = key;
      if (FORBIDDEN_KEYS.has(key)) {
        const field = fieldOf();
        throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `${field}: the key "${key}" is not accepted`, field);
      }
      if (top.keys!.has(key)) {
        const field = fieldOf();
        throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `${field}: duplicate key`, field);
      }
      top.keys!.add(key);
      expectKey = false;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      valueStarts();
      if (frames.length >= maxDepth) {
        const field = fieldOf();
        throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `${field}: nested deeper than ${maxDepth} levels`, field);
      }
      frames.push(c === 0x7b ? { keys: new Set(), index: 0 } : { index: 0 });
      expectKey = c === 0x7b;
      expectValue = c === 0x5b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      expectKey = false;
      expectValue = false;
    } else if (c === 0x3a /* : */) {
      expectValue = true;
    } else if (c === 0x2c /* , */) {
      const inObject = !!frames[frames.length - 1].keys;
      expectKey = inObject;
      expectValue = !inObject;
    } else if (expectValue) {
      valueStarts(); // a number, true, false or null; its other characters are skipped below
    }
  }
}

/**
 * The index of the quote that closes the string opened before `start`. indexOf (native) instead
 * of a loop per character: strings (tool descriptions) are most of a manifest's bytes. A quote
 * preceded by an odd number of backslashes is escaped; JSON.parse has accepted the text, so a
 * closing quote exists.
 */
function closingQuote(text: string, start: number): number {
  let at = text.indexOf('"', start);
  while (at > 0) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return text.length;
}
