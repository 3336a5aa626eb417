import fc from 'fast-check';
import { carriedArrayText } from './carried-array-text';

interface Item {
  readonly n: number;
  readonly note: string;
}

/** Counts the items it writes, to show which texts were written again and which were carried. */
function counted() {
  const writtenItems: Item[] = [];
  const write = carriedArrayText<Item | null | undefined>((value) => {
    if (value) writtenItems.push(value);
    return JSON.stringify(value);
  });
  return { write, writtenItems };
}

const item = (n: number): Item => ({ n, note: `note "${n}" \u2028 ü` });

/** A ring as the history keeps it: the newest last, at most `limit`. */
const push = (ring: readonly Item[], added: Item[], limit: number) => [...ring, ...added].slice(-limit);

describe('carriedArrayText', () => {
  it('writes an array made from an earlier one by writing only the items it added', () => {
    const { write, writtenItems } = counted();
    let ring = [item(1), item(2), item(3)];
    expect(write(ring)).toBe(JSON.stringify(ring));
    expect(writtenItems).toHaveLength(3);

    ring = push(ring, [item(4)], 3);
    expect(write(ring)).toBe(JSON.stringify(ring));
    ring = push(ring, [item(5), item(6)], 3);
    expect(write(ring)).toBe(JSON.stringify(ring));
    expect(writtenItems.map((i) => i.n)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('writes the same array again from its text, and carries text over writes that were not answered', () => {
    const { write, writtenItems } = counted();
    const first = [item(1), item(2)];
    const text = write(first);
    expect(write(first)).toBe(text);
    expect(write([...first])).toBe(text);

    // Two versions made in between whose answers were never written.
    const later = push(push(first, [item(3)], 4), [item(4), item(5)], 4);
    expect(write(later)).toBe(JSON.stringify(later));
    expect(writtenItems.map((i) => i.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('writes from scratch what shares items with an earlier array but not as a run in the same places', () => {
    const { write, writtenItems } = counted();
    const [a, b, c] = [item(1), item(2), item(3)];
    write([a, b, c]);
    writtenItems.length = 0;
    expect(write([b, a, c])).toBe(JSON.stringify([b, a, c]));
    expect(writtenItems).toHaveLength(3);
  });

  it('uses the earlier text for the items it shares, so an item changed in place keeps its old text', () => {
    const { write } = counted();
    const first = { n: 1, note: 'connection closed' };
    write([first]);
    // Never done to a domain value (P355); done here to show which text the next array is made of.
    first.note = 'changed in place';
    expect(JSON.parse(write([first, item(2)]))[0].note).toBe('connection closed');
  });

  it('writes missing items as null, as JSON does, and arrays of plain values without keeping them', () => {
    const { write } = counted();
    expect(write([])).toBe('[]');
    expect(write([null, undefined, item(1)])).toBe(JSON.stringify([null, null, item(1)]));
    expect(write([item(1), null])).toBe('[' + JSON.stringify(item(1)) + ',null]');
  });

  it('writes what JSON.stringify writes for any sequence of arrays made from a pool of items', () => {
    // Each step makes an array from the items of any array before it (or from new ones), in rings,
    // reversals, repeats and gaps: the text must never depend on which earlier text was used.
    const step = fc.record({
      from: fc.nat(),
      drop: fc.nat({ max: 5 }),
      add: fc.nat({ max: 3 }),
      limit: fc.integer({ min: 1, max: 6 }),
      shape: fc.constantFrom('ring', 'reversed', 'repeated', 'holed', 'same'),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const { write } = counted();
        const arrays: (Item | null)[][] = [[]];
        let next = 0;
        for (const s of steps) {
          const base = arrays[s.from % arrays.length];
          const added = Array.from({ length: s.add }, () => item(next++));
          let made: (Item | null)[] = [...base.slice(s.drop), ...added].slice(-s.limit);
          if (s.shape === 'reversed') made = [...made].reverse();
          if (s.shape === 'repeated') made = [...made, ...made];
          if (s.shape === 'holed') made = [...made, null, ...added];
          if (s.shape === 'same') made = base;
          arrays.push(made);
          expect(write(made)).toBe(JSON.stringify(made));
        }
      }),
      { numRuns: 500 },
    );
  });
});
