import { keyInScope, scopePrefix } from '../../src/domain/health-key';
import { HealthKey } from '../../src/domain/tool-health-document';
import type { ToolHealthRecord } from '../../src/persistence/tool-health/tool-health.schema';

/** What a stored tool_health record holds beside the declared fields (P42, P53). */
export type StoredToolHealthRecord = ToolHealthRecord & { appliedFlushIds?: string[] };

/**
 * The collections the in-memory ports share, as the Mongo adapters share one database: the
 * tool_health records (in their stored shape, via the real mapper) and the presence lists (P81).
 * Every value goes in and out through `copy`, so a test never holds a reference to stored state.
 */
export class InMemoryDatabase {
  /** tool_health by `_id`, in insertion order (Mongo's natural order for an unsorted find). */
  readonly toolHealth = new Map<string, StoredToolHealthRecord>();
  /** The presence lists (P81): scope prefix → tool names. */
  readonly presence = new Map<string, Set<string>>();

  /** Listed before the first insert of the document, like ToolPresence.add. */
  addPresence(key: HealthKey): void {
    const prefix = scopePrefix(key.scope, key.scopeId);
    let tools = this.presence.get(prefix);
    if (!tools) this.presence.set(prefix, (tools = new Set()));
    tools.add(key.toolName);
  }

  /** The manifest read's ids (manifest-read.ts): those the lists of `prefixes` name that `wanted` accepts. */
  candidateIds(prefixes: readonly string[], wanted: (prefix: string, toolName: string) => boolean): string[] {
    const ids: string[] = [];
    for (const prefix of prefixes)
      for (const tool of this.presence.get(prefix) ?? []) if (wanted(prefix, tool)) ids.push(keyInScope(prefix, tool));
    return ids;
  }
}

/**
 * A deep copy of plain data (objects, arrays, Dates), symbol keys included. Not structuredClone:
 * under jest that returns objects of another realm, whose Dates jest's equality does not treat
 * as Dates.
 */
export function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map((item) => copy(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(value)) out[key] = copy((value as Record<string | symbol, unknown>)[key]);
  return out as T;
}

/** Mongo's `$lt`/`$gt` on a Date field: a null or missing value never matches (type bracketing). */
export function before(value: Date | null | undefined, limit: Date): boolean {
  return value instanceof Date && value.getTime() < limit.getTime();
}

/** `$max` on a Date field: a Date beats null or missing (BSON order). */
export function later(current: Date | null | undefined, candidate: Date): Date {
  return current instanceof Date && current.getTime() >= candidate.getTime() ? current : candidate;
}

/** `_id` order of a Mongo sort on strings: by code point (the ids here are ASCII, D3a). */
export function byId(a: { _id: string }, b: { _id: string }): number {
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}
