import { ToolHealthClassification as C } from './classification';
import {
  DEFAULT_HISTORY_LIMIT,
  StatusWrite,
  applyStatus,
  atNextVersion,
  isPinned,
  isRetesting,
  newDocument,
  pushHistory,
} from './health-entry';
import { encodeKey } from './health-key';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { HealthKey, HistoryItem, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const KEY: HealthKey = { scope: Scope.PROJECT, scopeId: 'p1', toolName: 'mcp_search' };

function doc(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument(KEY, at(-60 * MIN)), ...overrides };
}

function item(n: number): HistoryItem {
  return { classification: null, code: null, note: `#${n}`, by: 'system:test', at: at(n * MIN), status: ToolStatus.DOWN, recoveryAt: null };
}

const pin = (status: ToolStatus.OK | ToolStatus.DOWN, until: Date): Pin => ({ status, until, reason: 'r', by: 'admin:ops', at: at(-MIN) });

describe('newDocument (D7)', () => {
  it('is a neutral OK entry with the encoded key as id', () => {
    expect(newDocument(KEY, T0)).toEqual({
      id: encodeKey(KEY),
      scope: Scope.PROJECT,
      scopeId: 'p1',
      toolName: 'mcp_search',
      tenantId: null,
      status: ToolStatus.OK,
      since: T0,
      lastCheckedAt: null,
      expectedRecoveryAt: null,
      code: null,
      lastFailureAt: null,
      lastDiagnosis: null,
      history: [],
      cooldowns: [],
      pin: null,
      description: null,
      version: 0,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it.each<[HealthKey, string | null | undefined, string | null]>([
    [{ scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' }, undefined, null],
    [{ scope: Scope.USER, scopeId: 'alice', toolName: 'jira' }, 't1', 't1'],
    [{ scope: Scope.TENANT, scopeId: 't9', toolName: 'jira' }, null, null],
  ])('key %j with tenant %j', (key, tenantId, expected) => {
    const d = tenantId === undefined ? newDocument(key, T0) : newDocument(key, T0, tenantId);
    expect(d).toMatchObject({ ...key, id: encodeKey(key), tenantId: expected });
  });

  it('does not share arrays between documents', () => {
    const a = newDocument(KEY, T0);
    const b = newDocument(KEY, T0);
    expect(a.history).not.toBe(b.history);
    expect(a.cooldowns).not.toBe(b.cooldowns);
  });
});

describe('atNextVersion', () => {
  it("a first write stores version 1 under the given id, leaving the reducer's document as it was", () => {
    const reduced = doc({ id: 'whatever the reducer said', status: ToolStatus.DOWN });
    const next = atNextVersion(reduced, null, encodeKey(KEY));
    expect(next).toEqual({ ...reduced, id: encodeKey(KEY), version: 1 });
    expect(reduced).toMatchObject({ id: 'whatever the reducer said', version: 0 });
  });

  it('a later write stores the version after the stored one, keeping the id when none is given', () => {
    const stored = doc({ version: 7 });
    const next = atNextVersion(doc({ version: 3, status: ToolStatus.DOWN }), stored);
    expect(next).toMatchObject({ id: encodeKey(KEY), version: 8, status: ToolStatus.DOWN });
  });

  it('keeps the fields in the order the reducer gave them (a stored document reads back the same)', () => {
    const reduced = doc({ status: ToolStatus.DEGRADED });
    expect(Object.keys(atNextVersion(reduced, doc({ version: 2 }), 'other'))).toEqual(Object.keys(reduced));
  });
});

describe('isPinned (D4b)', () => {
  it.each<[string, Pin | null, boolean]>([
    ['no pin', null, false],
    ['pin ends in the future', pin(ToolStatus.OK, at(1)), true],
    ['pin ends exactly now', pin(ToolStatus.OK, T0), false],
    ['pin ended', pin(ToolStatus.DOWN, at(-1)), false],
    ['DOWN pin ahead', pin(ToolStatus.DOWN, at(60 * MIN)), true],
  ])('%s → %s', (_label, p, expected) => {
    expect(isPinned(doc({ pin: p }), T0)).toBe(expected);
  });
});

describe('isRetesting (D5)', () => {
  it.each<[ToolStatus, Date | null, boolean]>([
    [ToolStatus.DOWN, null, false],
    [ToolStatus.DOWN, at(1), false],
    [ToolStatus.DOWN, T0, true],
    [ToolStatus.DOWN, at(-MIN), true],
    [ToolStatus.DEGRADED, null, false],
    [ToolStatus.DEGRADED, at(MIN), false],
    [ToolStatus.DEGRADED, T0, true],
    [ToolStatus.DEGRADED, at(-1), true],
    [ToolStatus.OK, at(-MIN), false],
    [ToolStatus.OK, null, false],
  ])('%s with expectedRecoveryAt %p → %s', (status, expectedRecoveryAt, expected) => {
    expect(isRetesting(doc({ status, expectedRecoveryAt }), T0)).toBe(expected);
  });
});

describe('pushHistory (D12 ring buffer, newest last)', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => item(i));

  it.each<[number, number, number[]]>([
    [0, 20, [0]],
    [5, 20, [0, 1, 2, 3, 4, 5]],
    [19, 20, Array.from({ length: 20 }, (_, i) => i)],
    [20, 20, Array.from({ length: 20 }, (_, i) => i + 1)],
    [30, 20, Array.from({ length: 20 }, (_, i) => i + 11)],
    [3, 1, [3]],
    [3, 3, [1, 2, 3]],
  ])('%i stored items, limit %i → notes %j', (stored, limit, expected) => {
    const result = pushHistory(items(stored), item(stored), limit);
    expect(result.map((h) => Number(h.note!.slice(1)))).toEqual(expected);
    expect(result[result.length - 1]).toEqual(item(stored));
  });

  it('does not mutate the input array', () => {
    const history = items(20);
    pushHistory(history, item(20), 20);
    expect(history).toHaveLength(20);
    expect(history[0]).toEqual(item(0));
  });

  it('25 pushes with limit 20 keep the newest 20 in order', () => {
    let history: HistoryItem[] = [];
    for (let i = 0; i < 25; i++) history = pushHistory(history, item(i), 20);
    expect(history.map((h) => h.note)).toEqual(Array.from({ length: 20 }, (_, i) => `#${i + 5}`));
  });

  it('the default limit is 20 (D12)', () => {
    expect(DEFAULT_HISTORY_LIMIT).toBe(20);
  });
});

describe('applyStatus (D12, D4b)', () => {
  const diagnosis = { classification: C.TECHNICALLY_BROKEN, code: ToolErrorCode.BACKEND_FAILED, note: 'n', by: 'agrajag-1', at: T0 };
  const write = (patch: Partial<StatusWrite> = {}): StatusWrite => ({
    status: ToolStatus.DOWN,
    diagnosis,
    expectedRecoveryAt: at(30 * MIN),
    code: ToolErrorCode.BACKEND_FAILED,
    historyLimit: 20,
    now: T0,
    ...patch,
  });

  it.each<[string, ToolStatus, ToolStatus, Date | undefined, Date]>([
    ['OK → DOWN moves since to now', ToolStatus.OK, ToolStatus.DOWN, undefined, T0],
    ['OK → DOWN uses the given since', ToolStatus.OK, ToolStatus.DOWN, at(-5 * MIN), at(-5 * MIN)],
    ['DOWN → DOWN keeps since', ToolStatus.DOWN, ToolStatus.DOWN, at(-5 * MIN), at(-60 * MIN)],
    ['DOWN → DEGRADED moves since', ToolStatus.DOWN, ToolStatus.DEGRADED, undefined, T0],
    ['DEGRADED → OK moves since', ToolStatus.DEGRADED, ToolStatus.OK, undefined, T0],
    ['OK → OK keeps since', ToolStatus.OK, ToolStatus.OK, at(-1), at(-60 * MIN)],
  ])('%s', (_label, from, to, since, expected) => {
    const result = applyStatus(doc({ status: from }), write({ status: to, since }));
    expect(result.status).toBe(to);
    expect(result.since).toEqual(expected);
    expect(result.lastCheckedAt).toEqual(T0);
    expect(result.updatedAt).toEqual(T0);
  });

  it('OK clears expectedRecoveryAt and code, and its history item has no recoveryAt', () => {
    const before = doc({ status: ToolStatus.DOWN, code: ToolErrorCode.BACKEND_UNREACHABLE, expectedRecoveryAt: at(MIN) });
    const result = applyStatus(
      before,
      write({ status: ToolStatus.OK, expectedRecoveryAt: at(5 * MIN), code: ToolErrorCode.BACKEND_FAILED }),
    );
    expect(result).toMatchObject({ status: ToolStatus.OK, expectedRecoveryAt: null, code: null });
    expect(result.history[0]).toMatchObject({ status: ToolStatus.OK, recoveryAt: null });
  });

  it('a problem write stores expectedRecoveryAt, code, lastDiagnosis and a history item', () => {
    const result = applyStatus(doc(), write());
    expect(result).toMatchObject({ expectedRecoveryAt: at(30 * MIN), code: ToolErrorCode.BACKEND_FAILED, lastDiagnosis: diagnosis });
    expect(result.history).toEqual([{ ...diagnosis, status: ToolStatus.DOWN, recoveryAt: at(30 * MIN) }]);
  });

  it.each<[string, Pin, ToolStatus]>([
    ['a pinned OK entry follows a DOWN verdict underneath', pin(ToolStatus.OK, at(MIN)), ToolStatus.OK],
    ['a pinned DOWN entry follows an OK verdict underneath', pin(ToolStatus.DOWN, at(MIN)), ToolStatus.DOWN],
  ])('%s, pin kept (P6: the pin is a read-time override)', (_label, p, status) => {
    const before = doc({ status, pin: p, since: at(-9 * MIN), expectedRecoveryAt: null, code: null });
    const verdict = status === ToolStatus.OK ? ToolStatus.DOWN : ToolStatus.OK;
    const result = applyStatus(before, write({ status: verdict }));
    expect(result.status).toBe(verdict);
    expect(result.since).toEqual(T0);
    expect(result.pin).toBe(p);
    expect(result.lastDiagnosis).toEqual(diagnosis);
    expect(result.lastCheckedAt).toEqual(T0);
    expect(result.history).toHaveLength(1);
    expect(result.history[0]).toMatchObject({ by: 'agrajag-1', status: verdict });
  });

  it('an expired pin does not protect the status', () => {
    const result = applyStatus(doc({ pin: pin(ToolStatus.OK, T0) }), write());
    expect(result.status).toBe(ToolStatus.DOWN);
  });

  it.each<[string | null, string | null | undefined, string | null]>([
    [null, undefined, null],
    [null, 't1', 't1'],
    ['t0', 't1', 't0'],
    ['t0', null, 't0'],
  ])('tenantId stored %j, written %j → %j', (stored, written, expected) => {
    expect(applyStatus(doc({ tenantId: stored }), write({ tenantId: written })).tenantId).toBe(expected);
  });

  it.each<[string | null, string | null | undefined, string | null]>([
    ['old', undefined, 'old'],
    ['old', null, 'old'],
    ['old', 'new', 'new'],
    [null, 'new', 'new'],
  ])('description stored %j, written %j → %j (D15b)', (stored, written, expected) => {
    expect(applyStatus(doc({ description: stored }), write({ description: written })).description).toBe(expected);
  });

  it('respects the history limit and does not mutate the stored document', () => {
    const before = doc({ history: Array.from({ length: 20 }, (_, i) => item(i)) });
    const snapshot = structuredClone(before);
    const result = applyStatus(before, write({ historyLimit: 20 }));
    expect(result.history).toHaveLength(20);
    expect(result.history[0]).toEqual(item(1));
    expect(result.history[19]).toMatchObject({ by: 'agrajag-1' });
    expect(before).toEqual(snapshot);
  });
});
