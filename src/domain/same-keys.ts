/**
 * `true` when A and B are the same set of keys; otherwise an object type naming what one side
 * lacks, so an assignment `const CHECK: SameKeys<A, B> = true` fails `tsc` with the missing names
 * in its message. Two shapes that must move together (a stored record and its document, an answer
 * and the domain type it shows, an enum and the table keyed by it) are held to each other this way.
 */
export type SameKeys<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : { missingFromFirst: Exclude<B, A> }
  : { missingFromSecond: Exclude<A, B> };

/**
 * The fields of T a value can be without: those that may be null, and the lists. A stored
 * document written before such a field existed reads it as its neutral value (null, or empty),
 * which each store's blank table gives once (typed with this, so a new such field must be named there).
 */
export type BlankableKeys<T> = {
  [K in keyof T]-?: null extends T[K] ? K : T[K] extends readonly unknown[] ? K : never;
}[keyof T];

/**
 * `stored` with each field it lacks (or holds as null/undefined) taken from `blanks`: how a store
 * reads a document written before a field existed (the driver applies no schema default).
 */
export function withBlanks<T extends object, B extends object>(stored: T, blanks: B): T & B {
  const filled = { ...blanks, ...stored } as Record<string, unknown>;
  for (const [field, blank] of Object.entries(blanks)) if (filled[field] === null || filled[field] === undefined) filled[field] = blank;
  return filled as T & B;
}
