import { MongoClient } from 'mongodb';
import { OwnServer, OwnServerKind } from '../support/own-server';

/**
 * case 3 of the D21 review (P118): a read from our mongo-java-server launcher returns a whole document,
 * never one half-way through an update. Upstream (1.47.0) an update mutates the stored document
 * object field by field in place, while a query's reply is encoded from that same object after
 * the collection's lock is released (docs/upstream-mongo-java-server.md): a reader could see
 * the new `a` with the old `b`. Here writers replace one document with `{a: i, pad, b: i}` while
 * readers read it; every read must have `a === b`. Bounded by counts, not time: the writers stop
 * after a fixed number of replaces each, and the readers read until then.
 */
jest.setTimeout(120_000);

const DB = 'tas_test_whole_documents';
const WRITERS = 4;
const READERS = 8;
// A large middle field: encoding it takes long enough for an update to land in between.
const PAD = Array.from({ length: 100 }, (_, i) => ({ n: i, s: 'x'.repeat(16) }));

async function probe(kind: OwnServerKind, writes: number): Promise<{ reads: number; torn: number; example: unknown }> {
  const server = await OwnServer.start('whole', kind);
  const client = await MongoClient.connect(server.uri(DB), { maxPoolSize: WRITERS + READERS + 2 });
  try {
    const docs = client.db(DB).collection<{ _id: string; a: number; pad: unknown[]; b: number }>('probe');
    await docs.insertOne({ _id: 'one', a: 0, pad: PAD, b: 0 });
    let done = false;
    let reads = 0;
    let torn = 0;
    let example: unknown = null;
    const writer = async (w: number) => {
      for (let i = 1; i <= writes; i++) {
        const n = i * WRITERS + w;
        await docs.replaceOne({ _id: 'one' }, { a: n, pad: PAD, b: n });
      }
    };
    const reader = async () => {
      while (!done) {
        const doc = await docs.findOne({ _id: 'one' });
        reads++;
        if (!doc || doc.a !== doc.b) {
          torn++;
          example ??= doc && { a: doc.a, b: doc.b };
        }
      }
    };
    const readers = Array.from({ length: READERS }, reader);
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    done = true;
    await Promise.all(readers);
    return { reads, torn, example };
  } finally {
    await client.close();
    await server.destroy();
  }
}

describe('whole documents on every read from the launcher (P118)', () => {
  // Before P118, on a loaded 2-core machine: 6 torn of 2726 reads (memory), 6 of 1302 (H2).
  it.each<[OwnServerKind, number]>([
    ['mongo-java-server', 300],
    ['mongo-java-server-h2', 150],
  ])('%s: no read sees a document half-way through a replace', async (kind, writes) => {
    const { reads, torn, example } = await probe(kind, writes);
    expect(reads).toBeGreaterThan(writes);
    expect({ torn, example }).toEqual({ torn: 0, example: null });
  });
});
