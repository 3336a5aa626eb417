import { DomainError } from '../domain/domain-error';
import fc from 'fast-check';
import { checkJsonCharset, checkStructure, decodeUtf8Body, firstInvalidByte, parseJsonBody } from './json-body';

function refusal(text: string, maxDepth?: number): { field?: string; message: string; code: string } {
  try {
    parseJsonBody(text, maxDepth);
  } catch (error) {
    const e = error as DomainError;
    return { field: e.field, message: e.message, code: e.code };
  }
  throw new Error('accepted');
}

describe('parseJsonBody (P63)', () => {
  it('returns what JSON.parse returns for ordinary bodies', () => {
    const text = '{"a":1,"b":[true,null,"x",{"c":-1.5e3}],"d":{"e":"\\"q\\""},"f":[]}';
    expect(parseJsonBody(text)).toEqual(JSON.parse(text));
    expect(parseJsonBody(' [1, 2] ')).toEqual([1, 2]);
    expect(parseJsonBody('"s"')).toBe('s');
  });

  it('refuses a duplicate key, naming it with its path', () => {
    expect(refusal('{"scope":"GLOBAL","toolName":"x","scope":"USER"}')).toMatchObject({
      field: 'scope',
      message: 'scope: duplicate key',
      code: 'INVALID_ARGUMENT',
    });
    expect(refusal('{"a":[1,{"k":1},{"k":2,"k":3}]}')).toMatchObject({ field: 'a[2].k' });
    expect(refusal('{"context":{"userId":"u","user\\u0049d":"v"}}')).toMatchObject({ field: 'context.userId' });
    // a string ending in backslashes, and an escaped quote, do not hide the next key from the scan
    expect(refusal(String.raw`{"d":"a\\","k":1,"q":"\"}\\\"","k":2}`)).toMatchObject({ field: 'k' });
    expect(refusal(String.raw`{"a\\":1,"b\"c":2,"b\"c":3}`)).toMatchObject({ field: 'b"c' });
    // the same key in sibling objects is fine
    expect(parseJsonBody('[{"k":1},{"k":2}]')).toEqual([{ k: 1 }, { k: 2 }]);
  });

  it('refuses __proto__, constructor and prototype keys at any depth, naming the field', () => {
    expect(refusal('{"__proto__":{"x":1}}')).toMatchObject({
      field: '__proto__',
      message: '__proto__: the key "__proto__" is not accepted',
    });
    expect(refusal('{"context":{"constructor":{"prototype":{}}}}')).toMatchObject({ field: 'context.constructor' });
    expect(refusal('{"list":[{"a":1},{"prototype":1}]}')).toMatchObject({ field: 'list[1].prototype' });
    expect(parseJsonBody('{"note":"__proto__ constructor"}')).toEqual({ note: '__proto__ constructor' }); // values are fine
  });

  it('refuses nesting beyond the limit with a 400, whatever the depth (5 000, 1 000 000)', () => {
    expect(refusal(`${'['.repeat(5000)}${']'.repeat(5000)}`)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('nested deeper than 32 levels'),
    });
    expect(refusal(`{"a":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`)).toMatchObject({ field: expect.stringMatching(/^a(\.a)+$/) });
    expect(refusal('[[[1]]]', 2)).toMatchObject({ field: '[0][0]', message: '[0][0]: nested deeper than 2 levels' });
    expect(refusal(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`).code).toBe('INVALID_ARGUMENT');
    expect(parseJsonBody('[[1]]', 2)).toEqual([[1]]);
  });

  it('refuses empty and malformed bodies naming `body`', () => {
    expect(refusal('')).toMatchObject({ field: 'body', message: expect.stringContaining('empty') });
    expect(refusal('{"a":')).toMatchObject({ field: 'body', message: expect.stringContaining('not valid JSON') });
  });
});

describe('checkJsonCharset (P63)', () => {
  it('accepts no charset and UTF-8 in any spelling, refuses others with 415 naming content-type', () => {
    for (const ok of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
    ]) {
      expect(() => checkJsonCharset(ok)).not.toThrow();
    }
    for (const bad of ['application/json; charset=utf-16', 'application/json; charset=ISO-8859-1']) {
      expect(() => checkJsonCharset(bad)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' }));
    }
  });
});

describe('strict UTF-8 (P137)', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  const decodeRefusal = (body: Buffer) => {
    try {
      decodeUtf8Body(body);
    } catch (error) {
      return { field: (error as DomainError).field, message: (error as DomainError).message };
    }
    throw new Error('accepted');
  };

  it('decodes well-formed UTF-8, multi-byte characters and astral ones included', () => {
    expect(decodeUtf8Body(Buffer.from('{"n":"Zürich € 𝄞"}'))).toBe('{"n":"Zürich € 𝄞"}');
  });

  it.each([
    ['a stray continuation byte', [0x80], 6],
    ['a truncated sequence', [0xe2, 0x82], 6],
    ['an overlong form of "/"', [0xc0, 0xaf], 6],
    ['a UTF-8-encoded surrogate (CESU)', [0xed, 0xa0, 0x80], 6],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 6],
    ['Latin-1 "é" after a valid "€"', [0xe2, 0x82, 0xac, 0xe9], 9],
  ])('refuses %s with a 400 naming body and the offset, instead of storing U+FFFD', (_case, bad, at) => {
    const body = bytes('{"n":"', bad, '"}');
    expect(decodeRefusal(body)).toEqual({ field: 'body', message: `body: not valid UTF-8 (byte ${at}); send UTF-8 JSON` });
    expect(firstInvalidByte(body)).toBe(at);
  });

  it('refuses an escaped lone surrogate with a 400 naming the field; a pair is accepted', () => {
    expect(refusal('{"a":{"note":"x\\ud800"}}')).toMatchObject({ field: 'a.note', code: 'INVALID_ARGUMENT' });
    expect(refusal('{"list":["ok","\\udc00y"]}')).toMatchObject({ field: 'list[1]' });
    expect(refusal('{"\\ud83d":1}')).toMatchObject({ field: '\ud83d' });
    expect(refusal('"\\uDBFF"').message).toMatch(/^body: holds a lone UTF-16 surrogate/);
    expect(parseJsonBody('{"clef":"\\ud834\\udd1e"}')).toEqual({ clef: '𝄞' });
  });
});

describe('parseJsonBody: the cheap check before the scan (P364)', () => {
  /** JSON string texts that stress the key count: escapes, backslash runs, colons, quotes, forbidden names. */
  const KEYS = [
    '"a"',
    '"\\u0061"',
    '"k"',
    '""',
    '":"',
    '"\\\\"',
    '"\\""',
    '"a\\\\"',
    '"__proto__"',
    '"\\u005f_proto__"',
    '"constructor"',
    '"prototype"',
  ];
  const SCALARS = ['1', '-2.5e3', 'true', 'null', '"s"', '":"', '"\\":"', '"\\\\"', '": x"', '"k\\":1,\\"k\\":2"'];
  const space = fc.constantFrom('', ' ', '\n', '\t', ' \r\n ');
  const { value } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...SCALARS), tie('object'), tie('array')),
    object: fc
      .array(fc.tuple(fc.constantFrom(...KEYS), space, space, tie('value')), { maxLength: 4 })
      .map((members) => `{${members.map(([key, before, after, item]) => `${key}${before}:${after}${item}`).join(',')}}`),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
  }));

  /** The body as the scan alone judged it: its value, or the message of its refusal. */
  function byScanAlone(text: string, maxDepth: number): unknown {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object') checkStructure(text, maxDepth);
      return parsed;
    } catch (error) {
      return (error as Error).message;
    }
  }

  function byParser(text: string, maxDepth: number): unknown {
    try {
      return parseJsonBody(text, maxDepth);
    } catch (error) {
      return (error as Error).message;
    }
  }

  it('accepts and refuses exactly what the scan alone does, with the same message', () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 5 }), (text, maxDepth) => {
        expect(byParser(text, maxDepth)).toEqual(byScanAlone(text, maxDepth));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves the decision to the scan when a string value looks like a key to the count', () => {
    // `": x"` opens with a quote followed by a colon, so the count reads one key more than the
    // text has: the body goes to the scan, which refuses a duplicate and accepts the rest.
    expect(refusal('{"k":": x","k":1}')).toMatchObject({ field: 'k', message: 'k: duplicate key' });
    expect(refusal('{"k" :1, "k"\n:2}')).toMatchObject({ field: 'k' });
    expect(parseJsonBody('{"a":": x","b":"\\":"}')).toEqual({ a: ': x', b: '":' });
  });
});
