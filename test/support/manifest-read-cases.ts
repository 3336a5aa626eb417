import { CommandStartedEvent, Db } from 'mongodb';
import fc from 'fast-check';
import {
  ManifestQuery,
  ManifestRead,
  READ_ANCHOR_COLLECTION,
  READ_ANCHOR_ID,
  ensureReadAnchor,
} from '../../src/persistence/tool-presence/manifest-read';
import { keyInScope } from '../../src/domain/health-key';

/**
 * The manifest read as one aggregation (P363) on a real server: for any presence lists, any
 * documents and any queries read together, each caller gets exactly what P81's two reads gave
 * it — the documents of its scopes whose names are listed there and that its manifest names, or
 * that are its own session's when it asks for the whole session (D15b). Call it in a describe
 * block; `own` is the server's database and the commands a client of the test's own started.
 */
export function manifestReadCases(own: { readonly db: Db; readonly started: CommandStartedEvent[] }): void {
  const started = own.started;
  const LISTS = 'manifest_read_lists';
  const ENTRIES = 'manifest_read_entries';
  const lists = () => own.db.collection<{ _id: string; tools: string[] }>(LISTS);
  const entries = () => own.db.collection<Entry>(ENTRIES);
  const newRead = () => new ManifestRead<Entry>(async () => own.db, { lists: LISTS, entries: ENTRIES }, ['toolName', 'status']);

  interface Entry {
    _id: string;
    toolName: string;
    status?: string | null;
    history?: string[];
  }

  const PREFIXES = ['SESSION|s-1', 'SESSION|s-2', 'USER|alice', 'USER|bob', 'PROJECT|p-1', 'TENANT|t-1', 'GLOBAL|%00'];
  // Every character D3a allows besides letters and digits.
  const NAMES = ['jira', 'github', 'mcp:search', 'files/read', 'me@host', 'x.y-z_1'];
  // A manifest may ask for a name outside D3a (the edge refuses it, the read does not rely on
  // that): it is no listed name, so it matches nothing. On MongoDB the strings of an expression's
  // array are expressions themselves, which is why the read quotes them with `$literal`; the
  // embedded server does not evaluate them, so here this case cannot tell a quoted read from an
  // unquoted one — it only holds the answer right.
  const ASKED = [...NAMES, '$$name'];

  interface State {
    /** Per prefix: its list (absent when null), and which names have a document (listed or not). */
    scopes: { listed: string[] | null; stored: string[] }[];
  }

  const state: fc.Arbitrary<State> = fc.record({
    scopes: fc.array(fc.record({ listed: fc.option(fc.subarray(NAMES), { nil: null }), stored: fc.subarray(NAMES) }), {
      minLength: PREFIXES.length,
      maxLength: PREFIXES.length,
    }),
  });
  const query: fc.Arbitrary<ManifestQuery> = fc
    .record({ prefixes: fc.subarray(PREFIXES, { minLength: 1, maxLength: 5 }), whole: fc.boolean(), wanted: fc.subarray(ASKED) })
    .map(({ prefixes, whole, wanted }) => ({
      prefixes,
      session: (whole && prefixes.find((p) => p.startsWith('SESSION|'))) || null,
      wanted: new Set(wanted),
    }));

  async function store(s: State): Promise<Entry[]> {
    await lists().deleteMany({});
    await entries().deleteMany({});
    const docs: Entry[] = [];
    const listDocs: { _id: string; tools: string[] }[] = [];
    s.scopes.forEach(({ listed, stored }, i) => {
      if (listed) listDocs.push({ _id: PREFIXES[i], tools: listed });
      // Every other document lacks a field the read asks for: it must read as null.
      stored.forEach((toolName, j) => {
        const doc: Entry = { _id: keyInScope(PREFIXES[i], toolName), toolName, history: ['big'] };
        if (j % 2 === 0) doc.status = 'DOWN';
        docs.push(doc);
      });
    });
    if (listDocs.length) await lists().insertMany(listDocs);
    if (docs.length) await entries().insertMany(docs);
    return docs;
  }

  /** What P81's reads gave a caller: listed in one of its scopes, and its session's or a name it asked for. */
  function expected(s: State, q: ManifestQuery): string[] {
    const ids: string[] = [];
    s.scopes.forEach(({ listed, stored }, i) => {
      const prefix = PREFIXES[i];
      if (!q.prefixes.includes(prefix)) return;
      for (const name of stored)
        if (listed?.includes(name) && (prefix === q.session || q.wanted.has(name))) ids.push(keyInScope(prefix, name));
    });
    return ids.sort();
  }

  beforeEach(async () => {
    await own.db.collection(READ_ANCHOR_COLLECTION).deleteMany({});
    await ensureReadAnchor(own.db);
  });

  it('gives every caller of one turn what its own reads would have, in one command', async () => {
    await fc.assert(
      fc.asyncProperty(state, fc.array(query, { minLength: 1, maxLength: 4 }), async (s, queries) => {
        const stored = new Map((await store(s)).map((doc) => [doc._id, doc]));
        const read = newRead();
        started.length = 0;
        const answers = await Promise.all(queries.map((q) => read.read(q)));
        expect(started.map((c) => c.commandName)).toEqual(['aggregate']);
        answers.forEach((answer, i) => {
          expect(answer.map((e) => e._id).sort()).toEqual(expected(s, queries[i]));
          // Only the fields asked for travel, an absent one as null.
          for (const e of answer) {
            expect(Object.keys(e).sort()).toEqual(['_id', 'status', 'toolName']);
            expect(e.status).toBe(stored.get(e._id)!.status ?? null);
          }
        });
      }),
      { numRuns: 40 },
    );
  });

  it('puts a missing anchor back, answers the same, and the next read is one command again', async () => {
    const s: State = { scopes: PREFIXES.map(() => ({ listed: ['jira', 'github'], stored: ['jira'] })) };
    await store(s);
    const q: ManifestQuery = { prefixes: ['USER|alice', 'GLOBAL|%00'], session: null, wanted: new Set(['jira', 'github']) };
    await own.db.collection(READ_ANCHOR_COLLECTION).deleteMany({});

    started.length = 0;
    expect((await newRead().read(q)).map((e) => e._id).sort()).toEqual(expected(s, q));
    expect(started.map((c) => c.commandName)).toEqual(['aggregate', 'update', 'aggregate']);
    expect(await own.db.collection(READ_ANCHOR_COLLECTION).countDocuments({ _id: READ_ANCHOR_ID as never })).toBe(1);

    started.length = 0;
    expect((await newRead().read(q)).map((e) => e._id).sort()).toEqual(expected(s, q));
    expect(started.map((c) => c.commandName)).toEqual(['aggregate']);
  });

  it('answers every entry of a large session (more than a default first batch, 101), and an empty read as nothing', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `tool_${i}`);
    await lists().deleteMany({});
    await entries().deleteMany({});
    await lists().insertOne({ _id: 'SESSION|s-1', tools: names });
    await entries().insertMany(names.map((toolName) => ({ _id: keyInScope('SESSION|s-1', toolName), toolName, status: 'DOWN' })));
    const whole = await newRead().read({ prefixes: ['SESSION|s-1'], session: 'SESSION|s-1', wanted: new Set() });
    expect(whole).toHaveLength(150);
    expect(await newRead().read({ prefixes: ['USER|nobody'], session: null, wanted: new Set(['tool_1']) })).toEqual([]);
  });
}
