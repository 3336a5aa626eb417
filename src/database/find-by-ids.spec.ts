import { Collection, Long } from 'mongodb';
import { findByIds } from './find-by-ids';

type Doc = { _id: string };

/**
 * What the real server tier cannot show (test/find-by-ids.e2e-spec.ts runs the rest): a server
 * that leaves the cursor open, and mongoose's stand-in before the connection opens.
 */
describe('findByIds', () => {
  const asCursorRead = jest.fn(async () => [{ _id: 'a' }, { _id: 'b' }]);
  const collectionWith = (db: unknown) =>
    ({ db, collectionName: 'docs', find: jest.fn(() => ({ toArray: asCursorRead })) }) as unknown as Collection<Doc> & {
      find: jest.Mock;
    };
  beforeEach(() => asCursorRead.mockClear());

  it('answers from the first batch when the server closed the cursor', async () => {
    const command = jest.fn(async () => ({ cursor: { id: Long.ZERO, firstBatch: [{ _id: 'a' }] } }));
    const collection = collectionWith({ command });
    expect(await findByIds(collection, ['a', 'b'], { n: 1 })).toEqual([{ _id: 'a' }]);
    expect(command).toHaveBeenCalledWith({
      find: 'docs',
      filter: { _id: { $in: ['a', 'b'] } },
      projection: { n: 1 },
      batchSize: 3,
      singleBatch: true,
    });
    expect(collection.find).not.toHaveBeenCalled();
  });

  it('reads again as a cursor when the server left documents behind an open one', async () => {
    const command = jest.fn(async () => ({ cursor: { id: Long.fromNumber(42), firstBatch: [{ _id: 'a' }] } }));
    const collection = collectionWith({ command });
    expect(await findByIds(collection, ['a', 'b'])).toEqual([{ _id: 'a' }, { _id: 'b' }]);
    expect(collection.find).toHaveBeenCalledWith({ _id: { $in: ['a', 'b'] } }, { batchSize: 3, projection: undefined });
  });

  it("reads through the collection's own find before the connection opens (no database to command)", async () => {
    const collection = collectionWith(undefined);
    expect(await findByIds(collection, ['a'])).toEqual([{ _id: 'a' }, { _id: 'b' }]);
    expect(collection.find).toHaveBeenCalledWith({ _id: 'a' }, { batchSize: 2, projection: undefined });
  });
});
