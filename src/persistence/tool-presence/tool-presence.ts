import { Collection } from 'mongodb';
import { keyInScope, scopePrefix } from '../../domain/health-key';
import { HealthKey } from '../../domain/tool-health-document';
import { DocumentIdWalk } from '../../database/document-id-walk';
import { ReadCoalescer } from '../../database/read-coalescer';
import { findByIds } from '../../database/find-by-ids';
import { ToolPresenceRecord } from './tool-presence.schema';

/** The marker of a finished backfill; no scope prefix can take this spelling (it has no `|`). */
export const BACKFILLED_MARKER = 'backfilled';

/**
 * The presence lists of tool_health (P81). Kept by the repository: a name is added to its
 * scope's list BEFORE the first insert of its document, so a reader that sees the document's
 * absence from a list saw a moment before the document existed.
 */
export class ToolPresence {
  constructor(private readonly lists: () => Collection<ToolPresenceRecord>) {}

  /** Before the first insert of `key`'s document. */
  async add(key: HealthKey): Promise<void> {
    await this.lists().updateOne({ _id: scopePrefix(key.scope, key.scopeId) }, { $addToSet: { tools: key.toolName } }, { upsert: true });
  }

  /** Before the first inserts of many documents (a bulk write, P159): one update per scope list. */
  async addMany(keys: readonly HealthKey[]): Promise<void> {
    const byList = new Map<string, string[]>();
    for (const key of keys) {
      const prefix = scopePrefix(key.scope, key.scopeId);
      byList.set(prefix, [...(byList.get(prefix) ?? []), key.toolName]);
    }
    await Promise.all(
      [...byList].map(([prefix, tools]) =>
        this.lists().updateOne({ _id: prefix }, { $addToSet: { tools: { $each: tools } } }, { upsert: true }),
      ),
    );
  }

  /**
   * The `_id`s that may have a document: in each prefix's list, the names `wanted` accepts.
   * One `$in` of ≤ 5 `_id`s, whatever the manifest's size.
   */
  async candidateIds(prefixes: readonly string[], wanted: (prefix: string, toolName: string) => boolean): Promise<string[]> {
    if (prefixes.length === 0) return [];
    const lists = await this.listReads.read(prefixes);
    const ids: string[] = [];
    for (const list of lists.values())
      for (const tool of list.tools ?? []) if (wanted(list._id, tool)) ids.push(keyInScope(list._id, tool));
    return ids;
  }

  /**
   * The presence-list reads of the annotations that arrive in one event-loop turn, as ONE `$in`:
   * the profile of a 1-tool annotation put half its service CPU in the driver, most of it the
   * system call that sends each command, and this read was the one command of a turn not yet
   * shared between concurrent requests (P323). Issued after its callers asked, so each sees
   * lists at least as fresh as its own read would — the order P81 relies on (a name enters its
   * list before its document exists) holds as before.
   */
  private readonly listReads = new ReadCoalescer<ToolPresenceRecord>((prefixes) => findByIds(this.lists(), prefixes));

  /**
   * Every `_id` the lists name, a slice at a time (the event relay's sweep, P114): one cursor
   * over all lists, `batchSize` lists per round trip, each list's names turned into `_id`s.
   * Every document's name is in its list before the document exists, so the walk reaches every
   * document that existed when it started (and names some that are gone).
   */
  walkIds(options: { batchSize: number; comment?: string }): DocumentIdWalk {
    const cursor = this.lists().find({}, { projection: { _id: 1, tools: 1 }, batchSize: options.batchSize, comment: options.comment });
    let buffered: string[] = [];
    let ended = false;
    return {
      next: async (max) => {
        while (buffered.length < max && !ended) {
          const list = await cursor.next();
          if (!list) ended = true;
          else if (list._id !== BACKFILLED_MARKER) for (const tool of list.tools ?? []) buffered.push(keyInScope(list._id, tool));
        }
        const slice = buffered.slice(0, max);
        buffered = buffered.slice(max);
        return slice;
      },
      close: () => cursor.close(),
    };
  }
}
