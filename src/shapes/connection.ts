import { DomainError } from '../domain/domain-error';
import { PageInfo } from './page-info.model';

/** Relay's connection arguments (P145): `first`/`after` page forward, `last`/`before` backward. */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** What a repository is asked for: up to `limit` items strictly between the bounds, from the end when `backward`. */
export interface PageWindow {
  size: number;
  /** size + 1: the extra item tells whether there is more, without a count. */
  limit: number;
  backward: boolean;
}

export function pageWindow(args: PageArgs, defaultSize: number): PageWindow {
  // Relay discourages both at once and no client needs it; one direction per request keeps the answer simple.
  if (args.first != null && args.last != null) throw DomainError.invalid('last', 'pass first or last, not both');
  const backward = args.last != null;
  const size = (backward ? args.last : args.first) ?? defaultSize;
  return { size, limit: size + 1, backward };
}

/**
 * The page and its PageInfo from what the repository returned: in order when going forward, from
 * the end backwards when `backward` (P145). The side the page was asked from says whether more
 * exists there; the other side has items whenever a cursor bounded it (P87). On an empty page the
 * cursors given come back, so polling forward (endCursor) or walking back (startCursor) resumes there.
 */
export function connectionOf<T>(
  fetched: readonly T[],
  args: PageArgs,
  window: PageWindow,
  cursorOf: (item: T) => string,
): { edges: { cursor: string; node: T }[]; pageInfo: PageInfo } {
  const more = fetched.length > window.size;
  const items = fetched.slice(0, window.size);
  if (window.backward) items.reverse();
  const edges = items.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: window.backward ? Boolean(args.before) : more,
      hasPreviousPage: window.backward ? more : Boolean(args.after),
      startCursor: edges.length > 0 ? edges[0].cursor : (args.before ?? null),
      endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : (args.after ?? null),
    },
  };
}
