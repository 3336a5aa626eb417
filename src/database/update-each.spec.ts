import { Collection, MongoNetworkError, MongoServerError } from 'mongodb';
import { updateEach } from './update-each';

type Doc = { _id: string; n: number };

/**
 * What the real server tier cannot show (test/update-each.e2e-spec.ts runs the rest): a write
 * concern error, the server refusing a command for its size, and mongoose's stand-in before the
 * connection opens.
 */
describe('updateEach', () => {
  const statements = [
    { q: { _id: 'a' }, u: { $set: { n: 1 } } },
    { q: { _id: 'b' }, u: { $inc: { n: 1 } }, arrayFilters: [{ 'x.k': 1 }] },
  ];
  const bulkWrite = jest.fn(async () => ({ matchedCount: 2 }));
  const collectionWith = (db: unknown, writeConcern?: unknown) =>
    ({ db, collectionName: 'docs', writeConcern, bulkWrite }) as unknown as Collection<Doc>;
  beforeEach(() => bulkWrite.mockClear());

  it('sends one unordered update command with the write concern, and reads matched and refused from the reply', async () => {
    const command = jest.fn(async () => ({ n: 1, writeErrors: [{ index: 1, code: 14, errmsg: 'not a number' }], ok: 1 }));
    const applied = await updateEach(collectionWith({ command }, { w: 'majority', wtimeoutMS: 500 }), statements);
    expect(applied).toEqual({ matched: 1, refused: [{ index: 1, code: 14, errmsg: 'not a number' }] });
    expect(command).toHaveBeenCalledWith({
      update: 'docs',
      updates: statements,
      ordered: false,
      writeConcern: { w: 'majority', wtimeout: 500 },
    });
    expect(bulkWrite).not.toHaveBeenCalled();
  });

  it('throws a write concern error: applied, but not as durably as asked', async () => {
    const command = jest.fn(async () => ({ n: 2, writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' }, ok: 1 }));
    const error = await updateEach(collectionWith({ command }), statements).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 64, message: 'waiting for replication timed out' });
  });

  it('goes through the bulk API when the server refuses the command for its size', async () => {
    const command = jest.fn(async () => {
      throw new MongoServerError({ code: 10334, errmsg: 'BSONObj size is invalid' });
    });
    expect(await updateEach(collectionWith({ command }), statements)).toEqual({ matched: 2, refused: [] });
    expect(bulkWrite).toHaveBeenCalledWith(
      [
        { updateOne: { filter: { _id: 'a' }, update: { $set: { n: 1 } } } },
        { updateOne: { filter: { _id: 'b' }, update: { $inc: { n: 1 } }, arrayFilters: [{ 'x.k': 1 }] } },
      ],
      { ordered: false },
    );
  });

  it('lets any other failure through, without sending the statements again', async () => {
    const lost = new MongoNetworkError('connection 3 closed');
    const command = jest.fn(async () => {
      throw lost;
    });
    await expect(updateEach(collectionWith({ command }), statements)).rejects.toBe(lost);
    expect(bulkWrite).not.toHaveBeenCalled();
  });

  it("writes through the collection's own bulk API before the connection opens (no database to command)", async () => {
    expect(await updateEach(collectionWith(undefined), statements)).toEqual({ matched: 2, refused: [] });
    expect(bulkWrite).toHaveBeenCalledTimes(1);
  });

  it('sends nothing for no statements', async () => {
    const command = jest.fn();
    expect(await updateEach(collectionWith({ command }), [])).toEqual({ matched: 0, refused: [] });
    expect(command).not.toHaveBeenCalled();
  });
});
