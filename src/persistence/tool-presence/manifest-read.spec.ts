import { Db, Document } from 'mongodb';
import { ManifestRead, ManifestRecord, READ_ANCHOR_COLLECTION, READ_ANCHOR_ID } from './manifest-read';

const COLLECTIONS = { lists: 'lists', entries: 'entries' };
const FIELDS = ['toolName'];

/**
 * A database that answers the read's commands from a script: each `aggregate` takes the next
 * reply; an anchor upsert is recorded. The pipeline itself runs on the real server in
 * test/manifest-read.e2e-spec.ts; this covers what the class does around it.
 */
function scriptedDb(replies: Document[]): { db: Db; commands: Document[]; upserts: Document[] } {
  const commands: Document[] = [];
  const upserts: Document[] = [];
  const db = {
    command: async (command: Document) => {
      commands.push(command);
      const reply = replies.shift();
      if (!reply) throw new Error(`unscripted command ${JSON.stringify(command)}`);
      return reply;
    },
    collection: (name: string) => ({
      updateOne: async (filter: Document, update: Document, options: Document) => {
        upserts.push({ name, filter, update, options });
        return { acknowledged: true };
      },
    }),
  };
  return { db: db as unknown as Db, commands, upserts };
}

/** The aggregation's answer: one document holding the entries, or none when the anchor is missing. */
const answer = (records: Document[]) => ({ cursor: { id: 0, firstBatch: [{ entries: records }] } });
const noAnchor = { cursor: { id: 0, firstBatch: [] } };
const record = (id: string): ManifestRecord => ({ _id: id, toolName: id.slice(id.lastIndexOf('|') + 1) });

describe('ManifestRead', () => {
  it('reads the queries of one event-loop turn with one command, each caller getting what its own query names', async () => {
    const stored = ['SESSION|s-1|gone', 'USER|alice|jira', 'GLOBAL|%00|jira', 'GLOBAL|%00|github', 'USER|bob|github'].map(record);
    const { db, commands } = scriptedDb([answer(stored)]);
    const read = new ManifestRead(async () => db, COLLECTIONS, FIELDS);

    const [alice, bob, probe] = await Promise.all([
      read.read({ prefixes: ['SESSION|s-1', 'USER|alice', 'GLOBAL|%00'], session: 'SESSION|s-1', wanted: new Set(['jira']) }),
      read.read({ prefixes: ['USER|bob', 'GLOBAL|%00'], session: null, wanted: new Set(['github']) }),
      // The same session on a probe turn: its entries only by name.
      read.read({ prefixes: ['SESSION|s-1', 'GLOBAL|%00'], session: null, wanted: new Set(['jira']) }),
    ]);

    expect(commands).toHaveLength(1);
    expect(alice.map((r) => r._id)).toEqual(['SESSION|s-1|gone', 'USER|alice|jira', 'GLOBAL|%00|jira']);
    expect(bob.map((r) => r._id)).toEqual(['GLOBAL|%00|github', 'USER|bob|github']);
    expect(probe.map((r) => r._id)).toEqual(['GLOBAL|%00|jira']);
    // The one command asked for the union of the three queries.
    const lookup = commands[0].pipeline[0].$project.lists.$literal;
    expect([...lookup].sort()).toEqual(['GLOBAL|%00', 'SESSION|s-1', 'USER|alice', 'USER|bob']);
  });

  it('answers a lone caller with everything its read returned, and reads again in a later turn', async () => {
    const { db, commands } = scriptedDb([answer([record('GLOBAL|%00|jira')]), answer([])]);
    const read = new ManifestRead(async () => db, COLLECTIONS, FIELDS);
    const query = { prefixes: ['GLOBAL|%00'], session: null, wanted: new Set(['jira']) };
    expect((await read.read(query)).map((r) => r._id)).toEqual(['GLOBAL|%00|jira']);
    expect(await read.read(query)).toEqual([]);
    expect(commands).toHaveLength(2);
  });

  it('puts a missing anchor back and reads again; an anchor still missing is an error, never an empty answer', async () => {
    const { db, commands, upserts } = scriptedDb([noAnchor, answer([record('GLOBAL|%00|jira')])]);
    const read = new ManifestRead(async () => db, COLLECTIONS, FIELDS);
    const query = { prefixes: ['GLOBAL|%00'], session: null, wanted: new Set(['jira']) };
    expect((await read.read(query)).map((r) => r._id)).toEqual(['GLOBAL|%00|jira']);
    expect(commands.map((c) => c.aggregate)).toEqual([READ_ANCHOR_COLLECTION, READ_ANCHOR_COLLECTION]);
    expect(upserts).toEqual([
      expect.objectContaining({ name: READ_ANCHOR_COLLECTION, filter: { _id: READ_ANCHOR_ID }, options: { upsert: true } }),
    ]);

    const gone = scriptedDb([noAnchor, noAnchor]);
    await expect(new ManifestRead(async () => gone.db, COLLECTIONS, FIELDS).read(query)).rejects.toThrow(READ_ANCHOR_COLLECTION);
  });

  it('fails every caller of a batch whose read failed', async () => {
    const { db } = scriptedDb([]);
    const read = new ManifestRead(async () => db, COLLECTIONS, FIELDS);
    const query = { prefixes: ['GLOBAL|%00'], session: null, wanted: new Set(['jira']) };
    const results = await Promise.allSettled([read.read(query), read.read(query)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
