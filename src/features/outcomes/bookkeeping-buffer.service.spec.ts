import { InMemoryToolHealthRepository } from '../../../test/fakes';
import { testConfig } from '../../../test/support/new-test-service';
import { BookkeepingFlush } from '../../persistence/tool-health/bookkeeping-update';
import { BookkeepingBuffer } from './bookkeeping-buffer.service';

const instant = (s: number) => new Date(Date.UTC(2026, 11, 7, 12, 0, s));

/** A buffer over the in-memory repository, and every flush it sent (applied or refused). */
function newBuffer() {
  const repository = new InMemoryToolHealthRepository();
  const sent: BookkeepingFlush[] = [];
  const apply = repository.applyBookkeeping.bind(repository);
  repository.applyBookkeeping = (flushes) => {
    sent.push(...flushes);
    return apply(flushes);
  };
  // A flush interval, so nothing is written until flush() is called (no timer: no lifecycle hook runs).
  const buffer = new BookkeepingBuffer(repository, testConfig({ BOOKKEEPING_FLUSH_MS: '250' }));
  return { buffer, sent, refuseNextFlush: () => repository.failNext(new Error('reply lost')) };
}

describe('BookkeepingBuffer (D10b)', () => {
  it('counts every hit of one cooldown entry and keeps its latest instant, in whatever order they arrive', async () => {
    const { buffer, sent } = newBuffer();
    const hit = { docId: 'doc-a', errorSignature: 'http-500', userId: 'u-1' };
    for (const s of [3, 9, 1, 5]) buffer.recordHit(hit, instant(s));
    buffer.recordHit({ ...hit, userId: null }, instant(2));
    await buffer.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0].writes).toEqual([
      {
        id: 'doc-a',
        hits: [
          { errorSignature: 'http-500', userId: 'u-1', count: 4, lastTriggeredAt: instant(9) },
          { errorSignature: 'http-500', userId: null, count: 1, lastTriggeredAt: instant(2) },
        ],
        lastFailureAt: null,
      },
    ]);
  });

  it('keeps the latest failure of a document, and none for a document that only had hits', async () => {
    const { buffer, sent } = newBuffer();
    for (const s of [4, 7, 5]) buffer.recordFailure('doc-a', instant(s));
    buffer.recordHit({ docId: 'doc-b', errorSignature: 'x', userId: null }, instant(1));
    await buffer.flush();
    expect(sent[0].writes.map((w) => [w.id, w.lastFailureAt])).toEqual([
      ['doc-a', instant(7)],
      ['doc-b', null],
    ]);
  });

  it('starts counting over after a flush, and a flush whose reply was lost is sent again unchanged first (P42)', async () => {
    const { buffer, sent, refuseNextFlush } = newBuffer();
    const hit = { docId: 'doc-a', errorSignature: 'x', userId: null };
    buffer.recordHit(hit, instant(1));
    buffer.recordHit(hit, instant(2));
    refuseNextFlush();
    await expect(buffer.flush()).rejects.toThrow('reply lost');
    buffer.recordHit(hit, instant(3));
    await buffer.flush();
    expect(sent.map((f) => [f.resent, f.writes[0].hits[0].count, f.writes[0].hits[0].lastTriggeredAt])).toEqual([
      [false, 2, instant(2)],
      [true, 2, instant(2)],
      [false, 1, instant(3)],
    ]);
    expect(sent[1].flushId).toBe(sent[0].flushId);
    expect(sent[2].flushId).not.toBe(sent[0].flushId);
  });
});
