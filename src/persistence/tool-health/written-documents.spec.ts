import { aToolHealthDocument } from '../../../test/factories';
import { storedEventsOf, withStoredEvents } from '../../domain/stored-events';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { WrittenDocuments } from './written-documents';

const event = (id: string) => ({ id }) as never;
const written = (id: string, version: number, life = 'life-a', pending: string[] = []): ToolHealthDocument =>
  withStoredEvents(aToolHealthDocument({ id, version, description: `${id} at ${version}` }), {
    life,
    pendingEvents: pending.map(event),
  });

describe('WrittenDocuments (P354): a write reads only the stamp of a document this instance knows', () => {
  it('gives the kept document while the stored version and life are the ones kept, with the stored pending events', () => {
    const known = new WrittenDocuments(10);
    const doc = written('a', 3, 'life-a', ['e1', 'e2']);
    known.remember(doc);

    // The relay took e1 out: that does not move the version.
    const current = known.current('a', { version: 3, life: 'life-a', pendingEvents: [event('e2')] });

    expect(current).toMatchObject({ id: 'a', version: 3, description: 'a at 3' });
    expect(storedEventsOf(current!)).toEqual({ life: 'life-a', pendingEvents: [{ id: 'e2' }] });
    // The kept document itself is not changed: it may be what another caller holds.
    expect(storedEventsOf(doc)?.pendingEvents).toEqual([{ id: 'e1' }, { id: 'e2' }]);
    expect(current).not.toBe(doc);
  });

  it('gives the kept document itself when nothing is pending, as kept or as stored', () => {
    const known = new WrittenDocuments(10);
    const doc = written('a', 3);
    known.remember(doc);

    expect(known.current('a', { version: 3, life: 'life-a', pendingEvents: [] })).toBe(doc);
    // Whatever the stamp shows pending is what the document gets, on a copy: the kept one stays as it was.
    const withEvents = known.current('a', { version: 3, life: 'life-a', pendingEvents: [event('e9')] });
    expect(storedEventsOf(withEvents!)).toEqual({ life: 'life-a', pendingEvents: [{ id: 'e9' }] });
    expect(storedEventsOf(doc)?.pendingEvents).toEqual([]);
  });

  it.each([
    ['another writer moved the version', { version: 4, life: 'life-a' }],
    ['the document was deleted and made again (a new life)', { version: 3, life: 'life-b' }],
    ['the document is gone', null],
  ])('forgets the document when %s, so the write reads it whole', (_, stamp) => {
    const known = new WrittenDocuments(10);
    known.remember(written('a', 3));

    expect(known.current('a', stamp)).toBeUndefined();
    expect(known.knows('a')).toBe(false);
  });

  it('reads a stamp without pending events or life as none and the first life, as a stored document without them is read', () => {
    const known = new WrittenDocuments(10);
    known.remember(withStoredEvents(aToolHealthDocument({ id: 'a', version: 1 }), { life: '0', pendingEvents: [] }));

    expect(storedEventsOf(known.current('a', { version: 1 })!)).toEqual({ life: '0', pendingEvents: [] });
  });

  it('knows nothing it was not told, and nothing it was told to forget', () => {
    const known = new WrittenDocuments(10);
    known.remember(written('a', 1));
    known.forget('a');

    expect(known.knows('a')).toBe(false);
    expect(known.current('a', { version: 1, life: 'life-a' })).toBeUndefined();
    expect(known.current('b', { version: 1, life: 'life-a' })).toBeUndefined();
  });

  it('keeps at most its limit, forgetting the one least recently written first', () => {
    const known = new WrittenDocuments(3);
    for (const id of ['a', 'b', 'c']) known.remember(written(id, 1));
    known.remember(written('a', 2)); // a is now the most recent
    known.remember(written('d', 1));

    expect(['a', 'b', 'c', 'd'].filter((id) => known.knows(id))).toEqual(['a', 'c', 'd']);
    expect(known.current('a', { version: 2, life: 'life-a' })).toMatchObject({ version: 2 });
  });

  it('keeps none with a limit of 0 (WRITTEN_DOCUMENTS_MAX=0): every write reads its document whole', () => {
    const known = new WrittenDocuments(0);
    known.remember(written('a', 1));

    expect(known.knows('a')).toBe(false);
  });
});
