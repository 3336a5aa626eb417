import { Db, Document } from 'mongodb';
import { prefixOfId } from '../../domain/health-key';

/**
 * The one document the manifest read's aggregation starts from. An aggregation needs a
 * collection to run on, and mongo-java-server runs one over its collection whole before the
 * first stage (no index, even for a leading `$match` on `_id`), nor has it `$documents` or
 * `$unionWith`; a collection of exactly one document makes the start cost nothing (P363).
 */
export const READ_ANCHOR_COLLECTION = 'read_anchor';
export const READ_ANCHOR_ID = 'anchor';

/** What one annotation asks of the manifest read (P81, D15b). */
export interface ManifestQuery {
  /** The encoded scope prefixes of the caller's cascade (≤ 5). */
  readonly prefixes: readonly string[];
  /** The caller's own session prefix when it asks for every entry of its session (D15b), else null. */
  readonly session: string | null;
  /** The manifest's tool names. */
  readonly wanted: ReadonlySet<string>;
}

/** What the read returns of an entry: its `_id` and tool name, plus the other fields it was given. */
export interface ManifestRecord {
  _id: string;
  toolName: string;
}

export interface ManifestReadCollections {
  /** The presence lists (P81): `_id` = scope prefix, `tools` = the names listed there. */
  lists: string;
  /** The documents the lists name, by `_id` = keyInScope(prefix, name). */
  entries: string;
}

/**
 * P81's two reads as ONE aggregation (P363): from the anchor, the lists of `prefixes` by `_id`,
 * then the ids they name that the read wants — every name of a list in `sessions`, the names in
 * `wanted` of any other — then those documents by `_id`, reduced to `fields`. Both lookups are
 * equality matches on `_id`, which every server answers from its `_id` index. The lists are read
 * before the documents in the one command, so P81's order holds: a name missing from a list read
 * here had no document when the list was read.
 *
 * The ids are built on the server as `prefix + '|' + name`: the encoding of a name (keyInScope)
 * is the name itself, because a listed name passed the D3a character set, which has neither of
 * the two characters the encoding escapes (ToolPresence.add checks it).
 *
 * The answer is ONE document, `{ entries: [...] }`, and none when the anchor is missing. Its
 * entries are reduced by `$map`, not by `$unwind` and a projection: mongo-java-server's `$unwind`
 * copies the whole document, every entry included, for each entry (a 200-tool turn cost its
 * database ~11 ms that way), and its `$project` of `entries.<field>` does not keep the entries
 * apart. Every field goes through `$ifNull`, so an absent one reads null (as the mapper reads an
 * absent field): mongo-java-server cannot encode the "missing" value a bare `$$this.<field>`
 * gives, and drops the connection instead.
 */
export function manifestReadPipeline(
  query: { prefixes: readonly string[]; sessions: readonly string[]; wanted: readonly string[] },
  collections: ManifestReadCollections,
  fields: readonly string[],
): Document[] {
  // Inside $reduce, `$$this` is the list at hand; $filter and $map name their element `name` so
  // that `$$this` keeps meaning the list.
  const tools = { $ifNull: ['$$this.tools', []] };
  // `$filter` with `$in`, not `$setIntersection`: the embedded server builds an ordered set for
  // the latter, which took it three times as long for a 200-tool manifest.
  // The caller's strings go in as `$literal`s: inside an expression, a string that starts with
  // `$` would be read as a path (D3a names cannot, but the read does not rely on that).
  const wanted = { $filter: { input: tools, as: 'name', cond: { $in: ['$$name', { $literal: query.wanted }] } } };
  const named = { $cond: [{ $in: ['$$this._id', { $literal: query.sessions }] }, tools, wanted] };
  const ids = {
    $reduce: {
      input: '$lists',
      initialValue: [],
      in: { $concatArrays: ['$$value', { $map: { input: named, as: 'name', in: { $concat: ['$$this._id', '|', '$$name'] } } }] },
    },
  };
  const entry: Document = { _id: '$$this._id' };
  for (const field of fields) entry[field] = { $ifNull: [`$$this.${field}`, null] };
  return [
    { $project: { _id: 0, lists: { $literal: query.prefixes } } },
    { $lookup: { from: collections.lists, localField: 'lists', foreignField: '_id', as: 'lists' } },
    { $project: { ids } },
    { $lookup: { from: collections.entries, localField: 'ids', foreignField: '_id', as: 'entries' } },
    { $project: { _id: 0, entries: { $map: { input: '$entries', in: entry } } } },
  ];
}

interface AggregateReply<R> {
  cursor: { firstBatch?: { entries?: R[] }[] };
}

interface Waiter<R> {
  query: ManifestQuery;
  resolve: (records: R[]) => void;
  reject: (error: unknown) => void;
}

/**
 * The manifest reads of one event-loop turn as ONE aggregation (P363, as P323 shared the list
 * reads): the union of the callers' prefixes, sessions and names, each caller then taking the
 * entries its own query names. Issued after its callers asked, so each sees data at least as
 * fresh as a read of its own would.
 */
export class ManifestRead<R extends ManifestRecord> {
  private open: Waiter<R>[] | null = null;

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly collections: ManifestReadCollections,
    /** The fields of a document the read returns beside `_id` (absent ones as null). */
    private readonly fields: readonly string[],
  ) {}

  /** The entries `query` names that exist now. */
  read(query: ManifestQuery): Promise<R[]> {
    return new Promise((resolve, reject) => {
      if (!this.open) {
        const batch: Waiter<R>[] = (this.open = []);
        setImmediate(() => void this.run(batch));
      }
      this.open.push({ query, resolve, reject });
    });
  }

  private async run(batch: Waiter<R>[]): Promise<void> {
    if (this.open === batch) this.open = null;
    let records: R[];
    try {
      records = await this.aggregate(union(batch.map((waiter) => waiter.query)));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    // Alone in its batch (a quiet moment): the read named exactly this caller's entries.
    if (batch.length === 1) return batch[0].resolve(records);
    for (const waiter of batch) waiter.resolve(records.filter((record) => names(waiter.query, record)));
  }

  private async aggregate(query: { prefixes: string[]; sessions: string[]; wanted: string[] }): Promise<R[]> {
    const db = await this.db();
    const command = { aggregate: READ_ANCHOR_COLLECTION, pipeline: manifestReadPipeline(query, this.collections, this.fields), cursor: {} };
    let [answer] = ((await db.command(command)) as AggregateReply<R>).cursor.firstBatch ?? [];
    if (!answer) {
      // No anchor (a new database, or one emptied by hand): put it back, then read again.
      await ensureReadAnchor(db);
      [answer] = ((await db.command(command)) as AggregateReply<R>).cursor.firstBatch ?? [];
      if (!answer) throw new Error(`the manifest read found no ${READ_ANCHOR_COLLECTION} document`);
    }
    return answer.entries ?? [];
  }
}

/** Creates the anchor if it is missing; a concurrent creation by another instance is the same document. */
export async function ensureReadAnchor(db: Db): Promise<void> {
  try {
    await db
      .collection<{ _id: string }>(READ_ANCHOR_COLLECTION)
      .updateOne({ _id: READ_ANCHOR_ID }, { $set: { purpose: 'the manifest read starts here' } }, { upsert: true });
  } catch (error) {
    if ((error as { code?: number })?.code !== 11000) throw error;
  }
}

function union(queries: readonly ManifestQuery[]): { prefixes: string[]; sessions: string[]; wanted: string[] } {
  if (queries.length === 1) {
    const [query] = queries;
    return { prefixes: [...query.prefixes], sessions: query.session ? [query.session] : [], wanted: [...query.wanted] };
  }
  const prefixes = new Set<string>();
  const sessions = new Set<string>();
  const wanted = new Set<string>();
  for (const query of queries) {
    for (const prefix of query.prefixes) prefixes.add(prefix);
    if (query.session) sessions.add(query.session);
    for (const name of query.wanted) wanted.add(name);
  }
  return { prefixes: [...prefixes], sessions: [...sessions], wanted: [...wanted] };
}

/** Whether `query` alone would have read `record`: a list of its own, and its session or one of its names. */
function names(query: ManifestQuery, record: ManifestRecord): boolean {
  const prefix = prefixOfId(record._id);
  return query.prefixes.includes(prefix) && (prefix === query.session || query.wanted.has(record.toolName));
}
