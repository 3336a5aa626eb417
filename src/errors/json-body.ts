import { isUtf8 } from 'node:buffer';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

/**
 * The one JSON body parser (P63). Deeper nesting than this is refused before any validator sees
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
 * The body's bytes as text, refused with a 400 naming `body` unless they are well-formed
 * UTF-8 (the only encoding accepted, P63) (P137). Buffer#toString would turn each invalid byte into
 * U+FFFD, which was then stored as if the caller had sent it. UTF-8-encoded surrogates (ED A0 80)
 * are invalid UTF-8 too. isUtf8 is native and linear.
 */
export function decodeUtf8Body(body: Buffer): string {
  if (!isUtf8(body)) {
    const at = firstInvalidByte(body);
    throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `body: not valid UTF-8 (byte ${at}); send UTF-8 JSON`, 'body');
  }
  return body.toString('utf8');
}

/**
 * The offset of the first byte of `body` that is not part of a well-formed UTF-8 sequence (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF). Only called on bodies isUtf8 refused.
 */
export function firstInvalidByte(body: Uint8Array): number {
  let i = 0;
  while (i < body.length) {
    const b = body[i];
    const [length, min, max] =
      b < 0x80
        ? [1, 0, 0]
        : b >= 0xc2 && b <= 0xdf
          ? [2, 0x80, 0xbf]
          : b === 0xe0
            ? [3, 0xa0, 0xbf]
            : b === 0xed
              ? [3, 0x80, 0x9f]
              : b >= 0xe1 && b <= 0xef
                ? [3, 0x80, 0xbf]
                : b === 0xf0
                  ? [4, 0x90, 0xbf]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : b === 0xf4
                      ? [4, 0x80, 0x8f]
                      : [0, 0, 0];
    if (length === 0) return i;
    if (length > 1) {
      if (!(body[i + 1] >= min && body[i + 1] <= max)) return i;
      for (let k = 2; k < length; k++) if ((body[i + k] & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return body.length;
}

/**
 * Parses a JSON request body. Syntax errors, nesting deeper than MAX_JSON_DEPTH, duplicate keys
 * (`"scope":"GLOBAL",…,"scope":"USER"` silently wrote USER) and `__proto__` / `constructor` /
 * `prototype` keys are each a 400 INVALID_ARGUMENT whose message and `field` name the place.
 * JSON.parse builds the value (fast, native); a walk of the value and a count of the text's keys
 * check the rest, and one linear scan of the text names the place when they find a problem.
 */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  // Whitespace only: the first non-space character answers, where trim() would copy the text.
  if (!/\S/.test(text)) {
    throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, 'body: empty; send a JSON object (or no content-type without a body)', 'body');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `body: not valid JSON (${(error as Error).message})`, 'body');
  }
  // The scan below names the place of a problem; most bodies have none, and a cheaper check
  // (their value and a count of keys in the text) says so first.
  if (value !== null && typeof value === 'object' && !plainlyAccepted(text, value, maxDepth)) checkStructure(text, maxDepth);
  if (LONE_SURROGATE_ESCAPE.test(text)) checkWellFormed(value, []);
  return value;
}

/** A `\uD800`–`\uDFFF` escape: the only way a JSON text decoded as strict UTF-8 can hold a surrogate. */
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string holding a surrogate that is not half of a pair (`"\ud800"`) is no Unicode text;
 * stored, it became U+FFFD on the way back out (P137). Refused with a 400 naming the field. Only run when
 * the text has a surrogate escape at all, so ordinary bodies pay one regular-expression scan.
 */
function checkWellFormed(value: unknown, path: (string | number)[]): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) {
      const field = pathOf(path) || 'body';
      throw new DomainError(
        DomainErrorCode.INVALID_ARGUMENT,
        `${field}: holds a lone UTF-16 surrogate (an unpaired \\uD800–\\uDFFF escape); send valid Unicode text`,
        field,
      );
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkWellFormed(item, [...path, i]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      checkWellFormed(key, [...path, key]);
      checkWellFormed(item, [...path, key]);
    }
  }
}

/**
 * The end of a key in JSON text: a quote preceded by an even run of backslashes (so not escaped),
 * then whitespace and a colon. Every key ends so; a string value that begins with a colon matches
 * at its opening quote as well, so the count is never below the text's keys, at most above them.
 */
const KEY_END = /(?<!\\)(?:\\\\)*"[ \t\n\r]*:/g;

/**
 * True when text JSON.parse turned into `value` certainly has no problem checkStructure refuses:
 * no container deeper than `maxDepth`, no forbidden key, and no more key ends in the text than
 * the value has keys — JSON.parse keeps one of each duplicate, so a duplicate makes the text's
 * count the larger. False says only "look closer": checkStructure then finds the problem and its
 * path, or none. About half the scan's cost on a 200-tool manifest, where the scan was 7 % of the
 * request's profile (docs/decisions.md, P364).
 */
function plainlyAccepted(text: string, value: object, maxDepth: number): boolean {
  const keys = keysWithin(value, 0, maxDepth);
  if (keys < 0) return false;
  KEY_END.lastIndex = 0;
  let ends = 0;
  // `test` advances lastIndex without building a match array for each key.
  while (KEY_END.test(text)) if (++ends > keys) return false;
  return true;
}

/** How many keys `value` holds at any depth; -1 for a container deeper than `maxDepth` or a forbidden key. */
function keysWithin(value: object, depth: number, maxDepth: number): number {
  if (depth >= maxDepth) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (item === null || typeof item !== 'object') continue;
      const inner = keysWithin(item, depth + 1, maxDepth);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  // Own keys only: an enumerable property added to Object.prototype elsewhere must not count.
  const keys = Object.keys(value);
  count = keys.length;
  for (const key of keys) {
    if (FORBIDDEN_KEYS.has(key)) return -1;
    const item = (value as Record<string, unknown>)[key];
    if (item === null || typeof item !== 'object') continue;
    const inner = keysWithin(item, depth + 1, maxDepth);
    if (inner < 0) return -1;
    count += inner;
  }
  return count;
}

interface Frame {
  /** Keys seen so far (objects only). */
  keys?: Set<string>;
  /** Next element index (arrays only). */
  index: number;
  /** The member key or element index being read: one segment of the path. */
  current?: string | number;
}

/**
 * One pass over text JSON.parse accepted: depth, duplicate and forbidden keys, with their paths.
 * Exported for the spec that holds parseJsonBody's cheaper check to it.
 */
export function checkStructure(text: string, maxDepth: number): void {
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
