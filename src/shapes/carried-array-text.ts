/**
 * The JSON text of arrays whose items are never changed in place, each array written from the text
 * of the one it was made from (P356).
 *
 * An entry's history is a ring: each version's array is the previous one less its oldest items,
 * plus the items the write added, all carried by identity (P355). Its text is therefore the previous
 * text with a head cut off and a tail added. Writing it so copies one run of text per array instead
 * of joining ~20 separately kept item texts, and looks up one kept text instead of 20: in a bulk
 * write's answer that joining was the largest part of writing ~4 000 history items.
 *
 * Correct for any arrays, not only rings: an earlier text is used only after every item it shares
 * with the new array has been checked to be the very same value, in the same place.
 */

/** A written array: its items as they were, its text, and where each item's text ends in it. */
interface WrittenArray {
  readonly items: readonly unknown[];
  readonly text: string;
  readonly ends: readonly number[];
}

/**
 * How an array is written when `item` writes each item and items are never changed in place. An
 * item that is missing is written as null, as JSON writes it.
 */
export function carriedArrayText<T>(item: (value: T) => string | undefined): (array: readonly T[]) => string {
  // Keyed by the last item of an array written before: that is the item a later array made from it
  // holds just before the ones added. One text per chain: a text is dropped once a newer one is made
  // from it, and goes with its last item in any case.
  const written = new WeakMap<object, WrittenArray>();
  const itemText = (value: T) => item(value) ?? 'null';

  return (array) => {
    const n = array.length;
    if (n === 0) return '[]';
    for (let j = n - 1; j >= 0; j--) {
      const last = array[j];
      if (typeof last !== 'object' || last === null) break;
      const before = written.get(last);
      if (before === undefined) continue;
      const dropped = before.items.length - 1 - j;
      if (dropped < 0 || !sameRun(before.items, dropped, array, j + 1)) continue;
      if (dropped === 0 && j === n - 1) return before.text;
      const made = extend(before, dropped, array, j + 1, itemText);
      if (j < n - 1) written.delete(last);
      remember(written, array, made);
      return made.text;
    }
    const made = extend({ items: [], text: '[]', ends: [] }, 0, array, 0, itemText);
    remember(written, array, made);
    return made.text;
  };
}

/** Whether before.items, less its first `dropped`, is the same values as array's first `count`. */
function sameRun(items: readonly unknown[], dropped: number, array: readonly unknown[], count: number): boolean {
  for (let i = 0; i < count; i++) if (items[dropped + i] !== array[i]) return false;
  return true;
}

/** The text of `array`: that of `before` less its first `dropped` items, then array's items from `from` on. */
function extend<T>(before: WrittenArray, dropped: number, array: readonly T[], from: number, itemText: (value: T) => string): WrittenArray {
  const ends: number[] = [];
  let text = '[';
  if (from > 0) {
    const start = dropped === 0 ? 1 : before.ends[dropped - 1] + 1;
    const end = before.ends[dropped + from - 1];
    text += before.text.slice(start, end);
    for (let i = 0; i < from; i++) ends.push(before.ends[dropped + i] - start + 1);
  }
  for (let i = from; i < array.length; i++) {
    text += (i > 0 ? ',' : '') + itemText(array[i]);
    ends.push(text.length);
  }
  text += ']';
  return { items: array.slice(), text, ends };
}

function remember(written: WeakMap<object, WrittenArray>, array: readonly unknown[], made: WrittenArray): void {
  const last = array[array.length - 1];
  if (typeof last === 'object' && last !== null) written.set(last, made);
}
