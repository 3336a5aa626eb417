import { findByIds } from '../src/database/find-by-ids';
import { commandRecordingClient } from './support/test-database';

/** The hot `_id` reads (P345) on the e2e tier's real server: one `find` command, whatever the count. */
describe('findByIds on the embedded server', () => {
  const own = commandRecordingClient();
  const started = own.started;
  const collection = () => own.db.collection<{ _id: string; n: number; big: string }>('find_by_ids');

  beforeEach(async () => {
    await collection().deleteMany({});
    await collection().insertMany(Array.from({ length: 300 }, (_, n) => ({ _id: `id-${n}`, n, big: 'x'.repeat(50) })));
    started.length = 0;
  });

  const commands = () => started.map((event) => event.commandName);

  it('reads one id, and many with absent ones among them, each in one command', async () => {
    expect(await findByIds(collection(), ['id-7'])).toEqual([{ _id: 'id-7', n: 7, big: 'x'.repeat(50) }]);
    const many = await findByIds(collection(), ['id-1', 'nope', 'id-2', 'id-299']);
    expect(many.map((d) => d._id).sort()).toEqual(['id-1', 'id-2', 'id-299']);
    expect(commands()).toEqual(['find', 'find']);
  });

  it('reads more ids than a default first batch (101) in one command, leaving no cursor open', async () => {
    const ids = Array.from({ length: 250 }, (_, n) => `id-${n}`);
    const found = await findByIds(collection(), ids);
    expect(found.map((d) => d.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 250 }, (_, n) => n));
    expect(commands()).toEqual(['find']);
  });

  it('asks only for the projected fields', async () => {
    const found = await findByIds(collection(), ['id-3', 'id-4'], { n: 1 });
    expect(found.sort((a, b) => a.n - b.n)).toEqual([
      { _id: 'id-3', n: 3 },
      { _id: 'id-4', n: 4 },
    ]);
  });
});
