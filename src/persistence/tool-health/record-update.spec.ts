import fc from 'fast-check';
import { RecordUpdate, recordUpdate } from './record-update';

/**
 * What a MongoDB server does with the update, as its manual says ($set, $unset, $push with $each
 * and a negative $slice), so the builder's output can be checked without one here. The contract
 * tier sends the same updates to the real server (test/contracts/tool-health-repository.contract.ts).
 */
function applied(before: Record<string, unknown>, update: RecordUpdate): Record<string, unknown> {
  const next: Record<string, unknown> = { ...before };
  for (const [field, value] of Object.entries(update.$set ?? {})) next[field] = value;
  for (const field of Object.keys(update.$unset ?? {})) delete next[field];
  for (const [field, push] of Object.entries(update.$push ?? {})) {
    const all = [...(next[field] as unknown[]), ...push.$each];
    next[field] = push.$slice === undefined ? all : all.slice(Math.max(0, all.length + push.$slice));
  }
  return next;
}

/** As a server stores it: undefined is written as null. */
const stored = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v ?? null]));

const item = (n: number) => ({ status: 'DOWN', at: new Date(n), note: `item ${n}` });
const history = (from: number, count: number) => Array.from({ length: count }, (_, i) => item(from + i));

describe('recordUpdate (P349): only what the reducer changed, the history as a push', () => {
  const before = {
    _id: 'PROJECT|p|t',
    status: 'DOWN',
    since: new Date(1_000),
    version: 7,
    lastDiagnosis: { note: 'n' },
    history: history(0, 20),
  };

  it('a ring buffer at its limit takes its new item as a push cut to the same length', () => {
    const after = { ...before, version: 8, lastCheckedAt: new Date(5), history: [...before.history.slice(1), item(20)] };
    expect(recordUpdate(before, after)).toEqual({
      $set: { version: 8, lastCheckedAt: new Date(5) },
      $push: { history: { $each: [item(20)], $slice: -20 } },
    });
  });

  it('a list below its limit grows by a push without a cut', () => {
    const short = { ...before, history: history(0, 3) };
    const after = { ...short, version: 8, history: [...short.history, item(3)] };
    expect(recordUpdate(short, after)).toEqual({ $set: { version: 8 }, $push: { history: { $each: [item(3)] } } });
  });

  it('sends nothing for a field that is the same object, an equal instant or an array of the same items', () => {
    const after = { ...before, since: new Date(1_000), history: [...before.history], version: 8 };
    expect(recordUpdate(before, after)).toEqual({ $set: { version: 8 } });
  });

  it('sets a field rebuilt with equal content again (identity, not deep comparison) and unsets a field the document lost', () => {
    const { lastDiagnosis: _dropped, ...rest } = before;
    const after = { ...rest, status: 'OK', version: 8 };
    expect(recordUpdate({ ...before, extra: 1 }, { ...after, extra: 1 })).toEqual({
      $set: { status: 'OK', version: 8 },
      $unset: { lastDiagnosis: '' },
    });
    expect(recordUpdate(before, { ...before, lastDiagnosis: { note: 'n' } })).toEqual({ $set: { lastDiagnosis: { note: 'n' } } });
  });

  it('a list emptied, cut without an item added, or changed in place is set whole, never pushed with $slice 0', () => {
    expect(recordUpdate(before, { ...before, history: [] })).toEqual({ $set: { history: [] } });
    const cutOnly = before.history.slice(5);
    expect(recordUpdate(before, { ...before, history: cutOnly })).toEqual({ $set: { history: cutOnly } });
    const changed = [item(99), ...before.history.slice(1)];
    expect(recordUpdate(before, { ...before, history: changed })).toEqual({ $set: { history: changed } });
  });

  it('a field the stored record lacks is set, even to null (a replacement would store it)', () => {
    expect(recordUpdate(before, { ...before, expectedRecoveryAt: null })).toEqual({ $set: { expectedRecoveryAt: null } });
  });

  // Whatever a reducer does to any field, the server ends with exactly `after`.
  const value = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 3 }),
    fc.integer({ min: 0, max: 1e6 }).map((n) => new Date(n)),
  );
  const list = fc.array(fc.integer({ min: 0, max: 50 }).map(item), { maxLength: 6 });
  const change = (was: unknown) =>
    fc.oneof(
      fc.constant(was),
      value,
      fc.constant(undefined),
      ...(Array.isArray(was)
        ? [
            // append some, keep the newest up to a limit (pushHistory)
            fc
              .tuple(list, fc.integer({ min: 0, max: 8 }))
              .map(([added, limit]) => (limit === 0 ? [...was, ...added] : [...was, ...added].slice(-limit))),
            // drop the oldest only (a lowered limit)
            fc.integer({ min: 0, max: was.length }).map((n) => was.slice(n)),
            // rebuild with equal content, or change one item in place
            fc.constant(was.map((x: object) => ({ ...x }))),
            fc.constant(was.length > 0 ? [item(99), ...was.slice(1)] : [item(99)]),
          ]
        : []),
    );
  const record = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'history', 'cooldowns'), fc.oneof(value, list), { maxKeys: 6 });

  it('property: applying the update to the stored record gives exactly the record the reducer returned', () => {
    fc.assert(
      fc.property(
        record.chain((was) =>
          fc
            .record({
              kept: fc.record(Object.fromEntries(Object.keys(was).map((k) => [k, change(was[k])]))),
              dropped: fc.subarray(Object.keys(was)),
              added: fc.dictionary(fc.constantFrom('e', 'f'), fc.oneof(value, list), { maxKeys: 2 }),
            })
            .map(({ kept, dropped, added }) => {
              const after: Record<string, unknown> = { ...kept, ...added };
              for (const field of dropped) delete after[field];
              return { was: { _id: 'x', ...was }, after: { _id: 'x', ...after } };
            }),
        ),
        ({ was, after }) => {
          const update = recordUpdate(was, after);
          expect(stored(applied(stored(was), update))).toEqual(stored(after));
          // Nothing unchanged is sent, and no field is in two operators.
          const sent = [update.$set, update.$unset, update.$push].flatMap((op) => Object.keys(op ?? {}));
          expect(new Set(sent).size).toBe(sent.length);
          expect(sent).not.toContain('_id');
        },
      ),
      { numRuns: 500 },
    );
  });
});
