import { UpdateFilter } from 'mongodb';
import { updateEach } from '../src/database/update-each';
import { commandRecordingClient } from './support/test-database';

type Doc = { _id: string; version: number; n: number; tags: string[]; big?: string; slots?: { k: string; c: number }[] };

/** Guarded updates as one `update` command (P360), on the e2e tier's real server. */
describe('updateEach on the embedded server', () => {
  const own = commandRecordingClient();
  const started = own.started;
  const collection = () => own.db.collection<Doc>('update_each');
  const ids = Array.from({ length: 300 }, (_, n) => `id-${n}`);

  beforeEach(async () => {
    await collection().deleteMany({});
    await collection().insertMany(ids.map((_id, n) => ({ _id, version: 1, n, tags: ['a'], slots: [{ k: 'x', c: 0 }] })));
    started.length = 0;
  });

  const updateCommands = () => started.filter((event) => event.commandName === 'update');
  const stored = async () => new Map((await collection().find().toArray()).map((doc) => [doc._id, doc]));

  it('applies 300 guarded updates in one command; only those whose guard holds count as matched', async () => {
    // Every third statement guards on a version the document no longer has: a lost race.
    const statements = ids.map((_id, n) => ({
      q: { _id, version: n % 3 === 0 ? 0 : 1 },
      u: { $set: { version: 2, n: n * 10 }, $push: { tags: { $each: ['b'], $slice: -2 } } },
    }));
    const applied = await updateEach(collection(), statements);
    expect(applied).toEqual({ matched: 200, refused: [] });
    expect(updateCommands()).toHaveLength(1);
    expect(updateCommands()[0].command.ordered).toBe(false);
    const docs = await stored();
    ids.forEach((id, n) =>
      expect(docs.get(id)).toEqual(
        n % 3 === 0
          ? { _id: id, version: 1, n, tags: ['a'], slots: [{ k: 'x', c: 0 }] }
          : { _id: id, version: 2, n: n * 10, tags: ['a', 'b'], slots: [{ k: 'x', c: 0 }] },
      ),
    );
  });

  it('sends array filters with their statement', async () => {
    const applied = await updateEach(collection(), [
      { q: { _id: 'id-1' }, u: { $inc: { 'slots.$[s].c': 5 } }, arrayFilters: [{ 's.k': 'x' }] },
    ]);
    expect(applied.matched).toBe(1);
    expect((await stored()).get('id-1')?.slots).toEqual([{ k: 'x', c: 5 }]);
  });

  it('reports a statement the server refuses by its place, and applies the others', async () => {
    const applied = await updateEach(collection(), [
      { q: { _id: 'id-1' }, u: { $set: { n: 11 } } },
      // $inc of a field that holds an array (the types forbid it too): refused by any MongoDB-protocol server.
      { q: { _id: 'id-2' }, u: { $inc: { tags: 1 } } as unknown as UpdateFilter<Doc> },
      { q: { _id: 'id-3' }, u: { $set: { n: 33 } } },
    ]);
    expect(applied.matched).toBe(2);
    expect(applied.refused.map((r) => r.index)).toEqual([1]);
    expect(applied.refused[0].errmsg).not.toBe('');
    const docs = await stored();
    expect([docs.get('id-1')?.n, docs.get('id-2')?.tags, docs.get('id-3')?.n]).toEqual([11, ['a'], 33]);
  });

  it('carries the write concern the collection was given', async () => {
    await updateEach(own.db.collection<Doc>('update_each', { writeConcern: { w: 1, journal: true } }), [
      { q: { _id: 'id-1' }, u: { $set: { n: 1 } } },
    ]);
    expect(updateCommands()[0].command.writeConcern).toEqual({ w: 1, j: true });
  });

  it('applies a list too large for one command (over 16 MB) through the bulk API, in several commands, each statement once', async () => {
    const big = 'x'.repeat(2_000_000);
    const statements = ids.slice(0, 10).map((_id) => ({ q: { _id, version: 1 }, u: { $set: { big, version: 2 }, $inc: { n: 1000 } } }));
    const applied = await updateEach(collection(), statements);
    expect(applied).toEqual({ matched: 10, refused: [] });
    expect(updateCommands().length).toBeGreaterThan(1);
    const docs = await stored();
    ids.slice(0, 10).forEach((id, n) => {
      const doc = docs.get(id);
      expect([doc?.version, doc?.n, doc?.big?.length]).toEqual([2, n + 1000, big.length]);
    });
    expect(docs.get('id-10')?.big).toBeUndefined();
  });
});
