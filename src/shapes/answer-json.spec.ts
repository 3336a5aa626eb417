import 'reflect-metadata';
import fc from 'fast-check';
import { ToolErrorCode, ToolHealthClassification, ToolStatus } from './enums.registration';
import { Scope } from '../domain/scope';
import { AnswerJson, AnswerPart, answerJson, arrayPart, asIs, objectPart, viewJson, viewPart } from './answer-json';
import { HistoryItemView } from './tool-health.view';
import { ToolHealthView } from './tool-health.view';
import { viewFieldsOf } from './view-field';

const instant = fc.oneof(
  fc.integer({ min: 0, max: 253_402_300_799_999 }).map((t) => new Date(t)),
  fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
  fc.constant(new Date(Number.NaN)),
);
// Quotes, backslashes, control characters, lone surrogates and non-Latin text: what JSON must escape.
const text = fc.string({ unit: 'binary', maxLength: 12 });
const nullable = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
const diagnosis = fc.record({
  classification: nullable(fc.constantFrom(...Object.values(ToolHealthClassification))),
  code: nullable(fc.constantFrom(...Object.values(ToolErrorCode))),
  note: nullable(text),
  by: text,
  at: instant,
});
const entry = fc.record(
  {
    id: text,
    scope: fc.constantFrom(...Object.values(Scope)),
    scopeId: nullable(text),
    toolName: text,
    tenantId: nullable(text),
    status: fc.constantFrom(...Object.values(ToolStatus)),
    since: instant,
    lastCheckedAt: nullable(instant),
    expectedRecoveryAt: nullable(instant),
    code: nullable(fc.constantFrom(...Object.values(ToolErrorCode))),
    lastFailureAt: nullable(instant),
    lastDiagnosis: nullable(diagnosis),
    history: fc.array(
      diagnosis.chain((d) =>
        fc.record({ status: fc.constantFrom(...Object.values(ToolStatus)), recoveryAt: nullable(instant) }).map((s) => ({ ...d, ...s })),
      ),
      { maxLength: 4 },
    ),
    cooldowns: fc.array(
      fc.record({
        errorSignature: text,
        userId: nullable(text),
        nextSpawnAllowedAt: instant,
        hits: fc.oneof(fc.integer(), fc.double()),
        lastClassification: fc.constantFrom(...Object.values(ToolHealthClassification)),
        lastTriggeredAt: nullable(instant),
        windowMs: fc.integer({ min: 0, max: 2_592_000_000 }),
      }),
      { maxLength: 3 },
    ),
    pin: nullable(
      fc.record({ status: fc.constantFrom(ToolStatus.OK, ToolStatus.DOWN), until: instant, reason: text, by: text, at: instant }),
    ),
    description: nullable(text),
    version: fc.nat(),
    createdAt: instant,
    updatedAt: instant,
  },
  // An answer may lack optional parts (JSON leaves an undefined property out).
  { requiredKeys: ['id', 'scope', 'toolName', 'status', 'history', 'cooldowns', 'version'] },
);

describe('answer JSON compiled from a view (P353)', () => {
  const write = viewJson(ToolHealthView);

  it('writes every generated entry as JSON.stringify does, property for property', () => {
    fc.assert(
      fc.property(entry, (value) => {
        expect(JSON.parse(write(value as unknown as ToolHealthView))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 3_000 },
    );
  });

  it('writes the text JSON.stringify writes for an entry whose properties are in the order the view declares them', () => {
    const order = viewFieldsOf(ToolHealthView).map((field) => field.name);
    fc.assert(
      fc.property(entry, (value) => {
        const ordered = Object.fromEntries(
          order.filter((name) => name in value).map((name) => [name, (value as Record<string, unknown>)[name]]),
        );
        expect(write(value as unknown as ToolHealthView)).toBe(JSON.stringify(ordered));
      }),
      { numRuns: 1_000 },
    );
  });

  it('leaves out what the view does not declare, and symbol-keyed parts, as an answer must', () => {
    const value = { id: 'a', version: 1, internal: 'not in the contract', [Symbol('events')]: [1] };
    expect(JSON.parse(write(value as unknown as ToolHealthView))).toEqual({ id: 'a', version: 1 });
  });

  it('writes a value that brings its own toJSON through it, as JSON.stringify does', () => {
    const value = { id: 'a', toJSON: () => ({ replaced: true }) };
    expect(write(value as unknown as ToolHealthView)).toBe('{"replaced":true}');
  });

  it('writes a value of another type than declared as JSON.stringify would, never a wrong text', () => {
    const value = { id: 7, since: '2026-05-23T14:30:00Z', version: 'x', history: 'none', lastDiagnosis: [1] };
    expect(JSON.parse(write(value as unknown as ToolHealthView))).toEqual(value);
  });
});

describe('objectPart and arrayPart', () => {
  interface Result {
    name: string;
    count: number;
    entry?: ToolHealthView;
    extra?: unknown;
  }
  const write: AnswerJson<Result> = answerJson(
    objectPart<Result>({ name: asIs, count: asIs, entry: viewPart(ToolHealthView), extra: asIs }),
  );

  it('writes properties in the order given, leaving out undefined ones', () => {
    expect(write({ count: 2, name: 'n', extra: undefined })).toBe('{"name":"n","count":2}');
  });

  it('prepares a nested view as its own writer would', () => {
    const at = new Date(Date.UTC(2026, 4, 23, 14, 30));
    const entry = { version: 3, since: at, id: 'e' } as unknown as ToolHealthView;
    expect(write({ name: 'n', count: 1, entry })).toBe(`{"name":"n","count":1,"entry":${viewJson(ToolHealthView)(entry)}}`);
    expect(JSON.parse(write({ name: 'n', count: 1, entry })).entry).toEqual({ id: 'e', since: at.toISOString(), version: 3 });
  });

  it('writes an array as JSON.stringify does, a missing item as null', () => {
    const items = answerJson(arrayPart<Result>(objectPart<Result>({ name: asIs, count: asIs, entry: asIs, extra: asIs })));
    expect(items([{ name: 'a', count: 1 }, null, undefined] as unknown as Result[])).toBe('[{"name":"a","count":1},null,null]');
    expect(items([])).toBe('[]');
  });

  it('writes an empty object as {}', () => {
    expect(answerJson(objectPart<{ a?: number }>({ a: asIs }))({})).toBe('{}');
  });
});

describe('history written from the text of the history it was made from (P355, P356)', () => {
  const write = viewJson(ToolHealthView);
  const item = () => ({
    classification: null,
    code: 'BACKEND_UNREACHABLE',
    note: 'connection closed',
    by: 'system:mcp-router',
    at: new Date(Date.UTC(2026, 4, 23, 14, 30)),
    status: ToolStatus.DOWN,
    recoveryAt: null,
  });

  it("writes an entry's next history from the text of its last one: items it carries are not written again", () => {
    const first = item();
    write({ id: 'e', version: 1, history: [first] } as unknown as ToolHealthView);
    // Never done to a domain value; done here to show which text the next answer is made of.
    (first as { note: string }).note = 'changed in place';
    const after = write({ id: 'e', version: 2, history: [first, item()] } as unknown as ToolHealthView);

    expect(JSON.parse(after).history.map((h: { note: string }) => h.note)).toEqual(['connection closed', 'connection closed']);
  });

  it("writes a value that is not an item, in an item's place, as JSON.stringify does", () => {
    const items = answerJson(arrayPart(viewPart(HistoryItemView)));
    expect(items([null, undefined, 'x', 3] as never)).toBe('[null,null,"x",3]');
    expect(items('none' as never)).toBe('"none"');
    expect(items(undefined as never)).toBe('null');
  });
});

describe('an object with a property given as text', () => {
  interface Parts {
    a?: unknown;
    items?: unknown;
    b?: unknown;
  }
  const items = arrayPart(viewPart(HistoryItemView)) as AnswerPart<object>;
  const cases: [string, (keyof Parts)[], AnswerJson<Parts>][] = [
    ['between others', ['a', 'items', 'b'], answerJson(objectPart<Parts>({ a: asIs, items, b: asIs }))],
    ['first', ['items', 'a', 'b'], answerJson(objectPart<Parts>({ items, a: asIs, b: asIs }))],
    ['last', ['a', 'b', 'items'], answerJson(objectPart<Parts>({ a: asIs, b: asIs, items }))],
  ];
  const value = fc.record(
    {
      a: fc.oneof(fc.string(), fc.constant(undefined)),
      items: fc.oneof(fc.constant(undefined), fc.constant(null), fc.array(fc.constant(null))),
      b: fc.integer(),
    },
    { requiredKeys: [] },
  );

  it.each(cases)(
    'writes the text JSON.stringify writes for the same properties in that order (the text property %s)',
    (_, order, write) => {
      fc.assert(
        fc.property(value, (v) => {
          const ordered = Object.fromEntries(order.filter((k) => k in v).map((k) => [k, v[k]]));
          expect(write(v)).toBe(JSON.stringify(ordered));
        }),
        { numRuns: 300 },
      );
    },
  );

  it('writes a value that is no such object as JSON.stringify does', () => {
    const [, , write] = cases[0];
    expect(write(null as never)).toBe('null');
    expect(write([1] as never)).toBe('[1]');
    expect(write({ toJSON: () => 'own' } as never)).toBe('"own"');
  });
});
