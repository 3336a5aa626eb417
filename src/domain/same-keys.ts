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
