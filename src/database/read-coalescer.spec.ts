import { ReadCoalescer } from './read-coalescer';

type Rec = { _id: string; v: number };
const db = new Map<string, Rec>([
  ['a', { _id: 'a', v: 1 }],
  ['b', { _id: 'b', v: 2 }],
  ['c', { _id: 'c', v: 3 }],
]);

function coalescer(maxIds?: number) {
  const queries: string[][] = [];
  let fail: Error | null = null;
  const c = new ReadCoalescer<Rec>(async (ids) => {
    queries.push(ids);
    if (fail) throw fail;
    return ids.flatMap((id) => (db.has(id) ? [db.get(id)!] : []));
  }, maxIds);
  return { c, queries, failWith: (e: Error) => (fail = e) };
}

describe('ReadCoalescer', () => {
  it('answers the reads of one event-loop turn with one query of the distinct ids', async () => {
    const { c, queries } = coalescer();
    const [x, y, z] = await Promise.all([c.read(['a', 'b']), c.read(['b', 'c', 'zz']), c.read(['zz'])]);
    expect(queries).toEqual([['a', 'b', 'c', 'zz']]);
    expect([...x.keys()]).toEqual(['a', 'b']);
    expect([...y.keys()]).toEqual(['b', 'c']); // each caller gets exactly its own ids
    expect(y.get('c')).toEqual({ _id: 'c', v: 3 });
    expect(z.size).toBe(0);
  });

  it('never reads earlier than asked: a read after a turn goes to a new query', async () => {
    const { c, queries } = coalescer();
    await c.read(['a']);
    await c.read(['a']);
    expect(queries).toEqual([['a'], ['a']]);
  });

  it('splits batches that would grow past the id limit, but serves a larger single read whole', async () => {
    const { c, queries } = coalescer(3);
    await Promise.all([c.read(['a', 'b']), c.read(['c', 'x']), c.read(['p', 'q', 'r', 's'])]);
    expect(queries).toEqual([
      ['a', 'b'],
      ['c', 'x'],
      ['p', 'q', 'r', 's'],
    ]);
  });

  it('fails every caller of a failed query, and recovers for the next turn', async () => {
    const { c, failWith } = coalescer();
    failWith(new Error('server selection timed out'));
    const results = await Promise.allSettled([c.read(['a']), c.read(['b'])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
