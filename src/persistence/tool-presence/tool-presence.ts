import { Collection } from 'mongodb';
import { ID_PATTERN, keyInScope, scopePrefix } from '../../domain/health-key';
import { HealthKey } from '../../domain/tool-health-document';
import { DocumentIdWalk } from '../../database/document-id-walk';
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
    assertListable(key);
    await this.lists().updateOne({ _id: scopePrefix(key.scope, key.scopeId) }, { $addToSet: { tools: key.toolName } }, { upsert: true });
  }

  /** Before the first inserts of many documents (a bulk write, P159): one update per scope list. */
  async addMany(keys: readonly HealthKey[]): Promise<void> {
    const byList = new Map<string, string[]>();
    for (const key of keys) {
      assertListable(key);
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

/**
 * The manifest read builds a listed name's `_id` on the server as `prefix|name`, which is its
 * encoding only for a name with nothing to escape, and the embedded server fails an aggregation
 * over a list holding a name that starts with `$` (P363). Every name that reaches a list passed
 * the D3a character set, which has neither; one that did not is refused before anything is
 * written, as it would otherwise be listed and then read as absent or break every read.
 */
function assertListable(key: HealthKey): void {
  if (!ID_PATTERN.test(key.toolName)) throw new Error(`a presence list cannot hold the name ${JSON.stringify(key.toolName)}`);
}
