import { HealthKey, ToolHealthDocument } from '../../src/domain/tool-health-document';
import { encodeKey } from '../../src/domain/health-key';
import { HealthEventType } from '../../src/domain/health-events';
import { Scope } from '../../src/domain/scope';
import { storedEventsOf, withStoredEvents } from '../../src/domain/stored-events';
import { ToolErrorCode } from '../../src/domain/tool-error-code';
import { ToolStatus } from '../../src/domain/tool-status';
import { ToolHealthRepository } from '../../src/persistence/tool-health/tool-health.repository';
import fc from 'fast-check';
import { pushHistory } from '../../src/domain/health-entry';
import {
  MINUTE,
  aCallContext,
  aCooldownEntry,
  aDownDocument,
  aHealthKey,
  aHistoryItem,
  aKeyAt,
  aPin,
  aStatusChange,
  aToolHealthDocument,
  at,
} from '../factories';

/**
 * What every ToolHealthRepository does, asserted through the port alone (P154): run against the
 * in-memory fake in the unit tier (src/persistence/tool-health/tool-health.repository.contract.spec.ts)
 * and against the Mongo adapter in the e2e tier (test/tool-health-repository.contract.e2e-spec.ts),
 * so the fake cannot drift from the adapter unnoticed. `repository()` is called in each test,
 * after the caller's beforeEach emptied the store.
 */
export function toolHealthRepositoryContract(repository: () => ToolHealthRepository): void {
  /** Stores `doc` as a first write (the store's way in: version 1). */
  async function stored(doc: ToolHealthDocument): Promise<ToolHealthDocument> {
    const result = await repository().mutate(doc, () => ({ ...doc, version: 0 }));
    return (await repository().findById(result.after!.id))!;
  }

  /** The document's fields, without what the write path keeps under symbol keys (P53). */
  const fields = (doc: ToolHealthDocument | null) => doc && Object.fromEntries(Object.entries(doc));

  describe('mutate (D3)', () => {
    it('creates a missing document at version 1 under its encoded key, the reducer given null', async () => {
      const key = aKeyAt(Scope.PROJECT);
      const seen: (ToolHealthDocument | null)[] = [];
      const result = await repository().mutate(key, (current) => {
        seen.push(current);
        return aToolHealthDocument({ ...key, id: 'ignored', version: 0 });
      });
      expect(seen).toEqual([null]);
      expect(result).toMatchObject({ before: null, written: true, after: { id: encodeKey(key), version: 1, scope: Scope.PROJECT } });
      expect(fields(await repository().findById(encodeKey(key)))).toEqual(fields(result.after));
    });

    it('writes nothing when the reducer returns its input (or null)', async () => {
      const doc = await stored(aToolHealthDocument());
      const same = await repository().mutate(doc, (current) => current);
      expect(same).toEqual({ before: doc, after: doc, written: false });
      const none = await repository().mutate(aHealthKey({ toolName: 'never-written' }), () => null);
      expect(none).toEqual({ before: null, after: null, written: false });
      expect(await repository().findById(encodeKey(aHealthKey({ toolName: 'never-written' })))).toBeNull();
    });

    it('gives the reducer the stored document and moves the version by one', async () => {
      const doc = await stored(aToolHealthDocument({ status: ToolStatus.DOWN }));
      const result = await repository().mutate(doc, (current) => ({ ...current!, status: ToolStatus.OK, updatedAt: at(MINUTE) }));
      expect(result.before).toEqual(doc);
      expect(result.after).toMatchObject({ status: ToolStatus.OK, version: 2 });
      expect(await repository().findById(doc.id)).toMatchObject({ status: ToolStatus.OK, version: 2, updatedAt: at(MINUTE) });
    });

    it('serialises writes to one key: concurrent increments all land', async () => {
      const doc = await stored(aToolHealthDocument({ cooldowns: [aCooldownEntry({ hits: 0 })] }));
      const bump = () =>
        repository().mutate(doc, (current) => ({
          ...current!,
          cooldowns: [{ ...current!.cooldowns[0], hits: current!.cooldowns[0].hits + 1 }],
        }));
      await Promise.all([bump(), bump(), bump(), bump()]);
      expect(await repository().findById(doc.id)).toMatchObject({ version: 5, cooldowns: [{ hits: 4 }] });
    });

    it('keeps the events committed inside the document (P53)', async () => {
      const doc = aToolHealthDocument();
      const event = {
        id: `${doc.id}:life-1:1:STATUS_CHANGED`,
        docId: doc.id,
        scope: doc.scope,
        scopeId: doc.scopeId,
        toolName: doc.toolName,
        status: ToolStatus.OK,
        effectiveStatus: ToolStatus.OK,
        tenantId: null,
        at: at(),
        type: HealthEventType.STATUS_CHANGED as const,
        payload: { previousStatus: null, expectedRecoveryAt: null, code: null, classification: null, note: null, by: null },
      };
      await repository().mutate(doc, () => withStoredEvents({ ...doc, version: 0 }, { life: 'life-1', pendingEvents: [event] }));
      expect(storedEventsOf((await repository().findById(doc.id))!)).toEqual({ life: 'life-1', pendingEvents: [event] });
    });
  });

  describe('mutateMany (P159)', () => {
    it('creates, changes and leaves documents in one call, answering in the order asked', async () => {
      const existing = await stored(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT), toolName: 'a', status: ToolStatus.DOWN }));
      const untouched = await stored(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT), toolName: 'b' }));
      const fresh = { ...aKeyAt(Scope.PROJECT), toolName: 'c' };
      const results = await repository().mutateMany([
        { key: existing, reducer: (current) => ({ ...current!, status: ToolStatus.OK }) },
        { key: untouched, reducer: (current) => current },
        { key: fresh, reducer: (current) => aToolHealthDocument({ ...fresh, id: 'ignored', version: current?.version ?? 0 }) },
      ]);
      expect(results.map((r) => [r.written, r.after?.version])).toEqual([
        [true, 2],
        [false, 1],
        [true, 1],
      ]);
      expect(await repository().findById(existing.id)).toMatchObject({ status: ToolStatus.OK, version: 2 });
      expect(await repository().findById(encodeKey(fresh))).toMatchObject({ toolName: 'c', version: 1 });
      // A document created this way is found by the manifest read (its presence list names it).
      const entries = await repository().findManifestEntries(aCallContext(), ['c'], false);
      expect([...entries.keys()]).toContain(encodeKey(fresh));
    });

    it('runs each reducer on the document as stored, also under concurrent single writes to the same keys', async () => {
      const docs = await Promise.all(
        ['x', 'y', 'z'].map((toolName) =>
          stored(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT), toolName, cooldowns: [aCooldownEntry({ hits: 0 })] })),
        ),
      );
      const bump = (current: ToolHealthDocument | null) => ({
        ...current!,
        cooldowns: [{ ...current!.cooldowns[0], hits: current!.cooldowns[0].hits + 1 }],
      });
      await Promise.all([
        repository().mutateMany(docs.map((doc) => ({ key: doc, reducer: bump }))),
        ...docs.map((doc) => repository().mutate(doc, bump)),
        repository().mutateMany(docs.map((doc) => ({ key: doc, reducer: bump }))),
      ]);
      for (const doc of docs) expect(await repository().findById(doc.id)).toMatchObject({ version: 4, cooldowns: [{ hits: 3 }] });
    });

    it('refuses the same key twice', async () => {
      const key = aKeyAt(Scope.PROJECT);
      await expect(
        repository().mutateMany([
          { key, reducer: (c) => c },
          { key, reducer: (c) => c },
        ]),
      ).rejects.toThrow(/distinct/);
    });
  });

  describe('what is stored is exactly what the reducer returned (P349: writes send only the changed fields)', () => {
    /** A reducer's change, as the write path's reducers make them: most keep what they do not change. */
    const changes: ((current: ToolHealthDocument, n: number) => ToolHealthDocument)[] = [
      // a status write: history pushed into a ring buffer of 1, 3 or 20 (D12)
      (c, n) => ({
        ...c,
        status: ToolStatus.DOWN,
        lastCheckedAt: at(n * MINUTE),
        history: pushHistory(c.history, aHistoryItem({ at: at(n * MINUTE), note: `write ${n}` }), [1, 3, 20][n % 3]),
      }),
      (c, n) => ({ ...c, status: ToolStatus.OK, since: at(n), expectedRecoveryAt: null, code: null }),
      (c, n) => ({ ...c, cooldowns: [...c.cooldowns.slice(-1), aCooldownEntry({ errorSignature: `http-${n}`, hits: n })] }),
      (c) => ({ ...c, cooldowns: c.cooldowns.map((entry) => ({ ...entry, hits: entry.hits + 1 })) }),
      (c, n) => ({ ...c, pin: n % 2 === 0 ? aPin({ reason: `pin ${n}` }) : null }),
      (c) => ({ ...c, lastDiagnosis: c.lastDiagnosis && { ...c.lastDiagnosis }, description: null }),
      (c) => ({ ...c, history: c.history.slice(1) }),
      // the events a write commits with it (P53): appended, or all taken by the relay
      (c, n) => {
        const prior = storedEventsOf(c) ?? { life: 'life-1', pendingEvents: [] };
        return withStoredEvents(c, {
          life: prior.life,
          pendingEvents: n % 3 === 0 ? [] : [...prior.pendingEvents, aStatusChange({ id: `e-${n}` })],
        });
      },
    ];
    const sequence = fc.array(fc.tuple(fc.nat(changes.length - 1), fc.boolean()), { minLength: 1, maxLength: 12 });

    it('property: after any sequence of single and bulk writes, a read gives the document each write answered', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(sequence, async (steps) => {
          const key = aKeyAt(Scope.PROJECT, { toolName: `seq_${run++}` });
          let last = (await repository().mutate(key, () => aDownDocument({ ...key, history: [aHistoryItem()] }))).after!;
          for (const [n, [change, bulk]] of steps.entries()) {
            const reducer = (current: ToolHealthDocument | null) => changes[change](current!, n + 1);
            const result = bulk ? (await repository().mutateMany([{ key, reducer }]))[0] : await repository().mutate(key, reducer);
            expect(fields(result.before)).toEqual(fields(last));
            last = result.after!;
            const read = await repository().findById(last.id);
            expect(fields(read)).toEqual(fields(last));
            // A document written without events reads as the first life with none pending (toDomain).
            expect(storedEventsOf(read!)).toEqual(storedEventsOf(last) ?? { life: '0', pendingEvents: [] });
          }
        }),
        { numRuns: 25 },
      );
    });
  });

  describe('reads', () => {
    it('hand out copies: changing a document read does not change what is stored', async () => {
      const doc = await stored(aToolHealthDocument({ history: [aHistoryItem()] }));
      const read = (await repository().findById(doc.id))!;
      read.history.push(aHistoryItem({ note: 'not stored' }));
      read.status = ToolStatus.DOWN;
      expect(await repository().findById(doc.id)).toEqual(doc);
    });

    it('findManyByIds answers the ids that exist, keyed by id', async () => {
      const a = await stored(aToolHealthDocument({ toolName: 'a' }));
      const b = await stored(aToolHealthDocument({ toolName: 'b' }));
      const found = await repository().findManyByIds([a.id, 'GLOBAL|%00|missing', b.id]);
      expect([...found.keys()].sort()).toEqual([a.id, b.id].sort());
      expect(found.get(b.id)).toEqual(b);
      expect(await repository().findManyByIds([])).toEqual(new Map());
    });

    it('findCascadeEntriesByIds: the ids that exist, each with the fields the cascade reads and no history or cooldowns', async () => {
      const down = await stored(
        aDownDocument({
          ...aKeyAt(Scope.PROJECT, { toolName: 'down' }),
          code: ToolErrorCode.BACKEND_FAILED,
          expectedRecoveryAt: at(10 * MINUTE),
          lastFailureAt: at(-MINUTE),
          pin: aPin(),
          description: 'a tool that is down',
          cooldowns: [aCooldownEntry()],
        }),
      );
      const ok = await stored(aToolHealthDocument({ toolName: 'ok' }));
      const found = await repository().findCascadeEntriesByIds([down.id, 'GLOBAL|%00|missing', ok.id]);
      expect([...found.keys()].sort()).toEqual([down.id, ok.id].sort());
      const cascadeFields = (doc: ToolHealthDocument) => ({
        id: doc.id,
        scope: doc.scope,
        scopeId: doc.scopeId,
        toolName: doc.toolName,
        status: doc.status,
        since: doc.since,
        expectedRecoveryAt: doc.expectedRecoveryAt,
        code: doc.code,
        lastFailureAt: doc.lastFailureAt,
        lastDiagnosis: doc.lastDiagnosis,
        pin: doc.pin,
        description: doc.description,
      });
      expect(found.get(down.id)).toEqual(cascadeFields(down));
      expect(found.get(ok.id)).toEqual(cascadeFields(ok));
      expect(await repository().findCascadeEntriesByIds([])).toEqual(new Map());
    });

    it('findManifestEntries: the cascade entries of the tools asked for, the whole session on request, no history or cooldowns', async () => {
      const context = aCallContext();
      const projectDoc = await stored(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT, { toolName: 'wanted' }), history: [aHistoryItem()] }));
      await stored(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT, { toolName: 'other' }) }));
      const sessionDoc = await stored(aToolHealthDocument({ ...aKeyAt(Scope.SESSION, { toolName: 'client-tool' }), description: 'd' }));
      await stored(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT, { scopeId: 'someone-else', toolName: 'wanted' }) }));

      const narrow = await repository().findManifestEntries(context, ['wanted'], false);
      expect([...narrow.keys()]).toEqual([projectDoc.id]);
      const entry = narrow.get(projectDoc.id)!;
      expect(entry).toMatchObject({ id: projectDoc.id, status: ToolStatus.OK, scope: Scope.PROJECT });
      expect(entry).not.toHaveProperty('history');
      expect(entry).not.toHaveProperty('cooldowns');

      const whole = await repository().findManifestEntries(context, ['wanted'], true);
      expect([...whole.keys()].sort()).toEqual([projectDoc.id, sessionDoc.id].sort());
      expect(whole.get(sessionDoc.id)).toMatchObject({ description: 'd' });
    });

    it('findWithCooldownExpiredBefore: documents holding an entry that expired before the cutoff', async () => {
      const expired = await stored(
        aToolHealthDocument({ toolName: 'expired', cooldowns: [aCooldownEntry({ nextSpawnAllowedAt: at(-2 * MINUTE) })] }),
      );
      await stored(aToolHealthDocument({ toolName: 'running', cooldowns: [aCooldownEntry({ nextSpawnAllowedAt: at(2 * MINUTE) })] }));
      await stored(aToolHealthDocument({ toolName: 'none' }));
      const found = await repository().findWithCooldownExpiredBefore(at(-MINUTE), 10);
      expect(found.map((d) => d.id)).toEqual([expired.id]);
    });

    it('findDownUncheckedSince: DOWN without an expected recovery, last checked before the cutoff, oldest check first, limited', async () => {
      const down = (toolName: string, overrides: Partial<ToolHealthDocument>) =>
        stored(aToolHealthDocument({ toolName, status: ToolStatus.DOWN, lastCheckedAt: at(-10 * MINUTE), ...overrides }));
      const newer = await down('newer', { lastCheckedAt: at(-20 * MINUTE) });
      const older = await down('older', { lastCheckedAt: at(-40 * MINUTE) });
      await down('oldest-but-limited', { lastCheckedAt: at(-30 * MINUTE), expectedRecoveryAt: at(MINUTE) });
      await down('never-checked', { lastCheckedAt: null });
      await down('recent', { lastCheckedAt: at(-MINUTE) });
      await stored(aToolHealthDocument({ toolName: 'ok', lastCheckedAt: at(-50 * MINUTE) }));
      const found = await repository().findDownUncheckedSince(at(-15 * MINUTE), 10);
      expect(found.map((d) => d.id)).toEqual([older.id, newer.id]);
      expect((await repository().findDownUncheckedSince(at(-15 * MINUTE), 1)).map((d) => d.id)).toEqual([older.id]);
    });
  });

  describe('applyBookkeeping (D10b, P42)', () => {
    const user = (key: HealthKey) => aToolHealthDocument({ ...key, cooldowns: [aCooldownEntry({ hits: 2, lastTriggeredAt: at(MINUTE) })] });

    it('adds hits, moves instants only forward and the version by one, leaves updatedAt', async () => {
      const doc = await stored(user(aHealthKey()));
      await repository().applyBookkeeping([
        {
          flushId: 'i.1',
          resent: false,
          writes: [
            {
              id: doc.id,
              hits: [
                { errorSignature: 'http-502', userId: null, count: 3, lastTriggeredAt: at(30_000) },
                { errorSignature: 'gone', userId: null, count: 5, lastTriggeredAt: at(5 * MINUTE) },
              ],
              lastFailureAt: at(2 * MINUTE),
            },
          ],
        },
      ]);
      const after = (await repository().findById(doc.id))!;
      expect(after.cooldowns).toEqual([{ ...doc.cooldowns[0], hits: 5, lastTriggeredAt: at(MINUTE) }]);
      expect(after).toMatchObject({ version: 2, lastFailureAt: at(2 * MINUTE), updatedAt: doc.updatedAt });
    });

    it('applies a resent flush at most once per document, and never recreates a missing one', async () => {
      const doc = await stored(user(aHealthKey()));
      const flush = {
        flushId: 'i.2',
        writes: [
          { id: doc.id, hits: [{ errorSignature: 'http-502', userId: null, count: 1, lastTriggeredAt: at(MINUTE) }], lastFailureAt: null },
          { id: 'GLOBAL|%00|missing', hits: [], lastFailureAt: at(MINUTE) },
        ],
      };
      await repository().applyBookkeeping([{ ...flush, resent: false }]);
      await repository().applyBookkeeping([{ ...flush, resent: true }]);
      expect(await repository().findById(doc.id)).toMatchObject({ version: 2, cooldowns: [{ hits: 3 }] });
      expect(await repository().findById('GLOBAL|%00|missing')).toBeNull();
    });

    it('a write after it starts from the counts it added (they are not overwritten)', async () => {
      const doc = await stored(user(aHealthKey()));
      await repository().applyBookkeeping([
        {
          flushId: 'i.3',
          resent: false,
          writes: [
            {
              id: doc.id,
              hits: [{ errorSignature: 'http-502', userId: null, count: 4, lastTriggeredAt: at(MINUTE) }],
              lastFailureAt: null,
            },
          ],
        },
      ]);
      const result = await repository().mutate(doc, (current) => ({ ...current!, status: ToolStatus.DEGRADED }));
      expect(result.before).toMatchObject({ version: 2, cooldowns: [{ hits: 6 }] });
      expect(await repository().findById(doc.id)).toMatchObject({ status: ToolStatus.DEGRADED, version: 3, cooldowns: [{ hits: 6 }] });
    });
  });
}
