import { APPLIED_FLUSH_IDS, bookkeepingUpdate } from './bookkeeping-update';

const at = (s: number) => new Date(Date.UTC(2026, 4, 23, 14, 0, s));

describe('bookkeepingUpdate (P42)', () => {
  it("adds each entry's hits through its own array filter, moves instants forward only, records the flush id", () => {
    const op = bookkeepingUpdate(
      {
        id: 'PROJECT|p|t',
        hits: [
          { errorSignature: 'http-502', userId: null, count: 3, lastTriggeredAt: at(5) },
          { errorSignature: 'http-403', userId: 'u1', count: 1, lastTriggeredAt: at(7) },
        ],
        lastFailureAt: at(9),
      },
      'abc.1',
      true,
    );
    expect(op).toEqual({
      filter: { _id: 'PROJECT|p|t', appliedFlushIds: { $ne: 'abc.1' } },
      update: {
        $inc: { version: 1, 'cooldowns.$[c0].hits': 3, 'cooldowns.$[c1].hits': 1 },
        $max: { 'cooldowns.$[c0].lastTriggeredAt': at(5), 'cooldowns.$[c1].lastTriggeredAt': at(7), lastFailureAt: at(9) },
        $push: { appliedFlushIds: { $each: ['abc.1'], $slice: -APPLIED_FLUSH_IDS } },
      },
      arrayFilters: [
        { 'c0.errorSignature': 'http-502', 'c0.userId': null },
        { 'c1.errorSignature': 'http-403', 'c1.userId': 'u1' },
      ],
    });
  });

  it('touches no other field: no $set, no replacement, updatedAt untouched (D13)', () => {
    const { update } = bookkeepingUpdate(
      { id: 'x', hits: [{ errorSignature: 's', userId: null, count: 2, lastTriggeredAt: at(1) }], lastFailureAt: null },
      'f',
      true,
    );
    expect(Object.keys(update).sort()).toEqual(['$inc', '$max', '$push']);
    expect(JSON.stringify(update)).not.toContain('updatedAt');
  });

  it('lastFailureAt alone: no array filters; zero counts are skipped', () => {
    const op = bookkeepingUpdate(
      { id: 'x', hits: [{ errorSignature: 's', userId: null, count: 0, lastTriggeredAt: at(1) }], lastFailureAt: at(2) },
      'f',
      true,
    );
    expect(op).toEqual({
      filter: { _id: 'x', appliedFlushIds: { $ne: 'f' } },
      update: {
        $inc: { version: 1 },
        $max: { lastFailureAt: at(2) },
        $push: { appliedFlushIds: { $each: ['f'], $slice: -APPLIED_FLUSH_IDS } },
      },
    });
  });

  it('a first sending filters by _id alone (its id is new, no document can hold it); a resent one carries the guard (P99)', () => {
    const write = { id: 'x', hits: [], lastFailureAt: at(2) };
    const first = bookkeepingUpdate(write, 'f', false);
    const resent = bookkeepingUpdate(write, 'f', true);
    expect(first.filter).toEqual({ _id: 'x' });
    expect(resent.filter).toEqual({ _id: 'x', appliedFlushIds: { $ne: 'f' } });
    // Both record the id, so a later resending finds it.
    expect(first.update).toEqual(resent.update);
  });
});
