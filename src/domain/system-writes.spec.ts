import { ToolHealthClassification as C } from './classification';
import { newDocument } from './health-entry';
import { encodeKey } from './health-key';
import { Scope } from './scope';
import {
  MarkIntermittent,
  MarkUnavailable,
  SystemWrite,
  markAvailable,
  markIntermittent,
  markUnavailable,
  systemActor,
} from './system-writes';
import { ToolErrorCode } from './tool-error-code';
import { HealthKey, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const KEY: HealthKey = { scope: Scope.SESSION, scopeId: 's1', toolName: 'client_file_read' };
const { OK, DEGRADED, DOWN } = ToolStatus;

function doc(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument(KEY, at(-60 * MIN)), ...overrides };
}

const unavailable = (patch: Partial<MarkUnavailable> = {}): MarkUnavailable => ({
  key: KEY,
  source: 'foot',
  now: T0,
  historyLimit: 20,
  code: ToolErrorCode.BACKEND_UNREACHABLE,
  ...patch,
});
const intermittent = (patch: Partial<MarkIntermittent> = {}): MarkIntermittent => ({
  key: KEY,
  source: 'mcp',
  now: T0,
  historyLimit: 20,
  ...patch,
});
const available = (patch: Partial<SystemWrite> = {}): SystemWrite => ({ key: KEY, source: 'foot', now: T0, historyLimit: 20, ...patch });

const pin = (status: OKorDOWN, until = at(60 * MIN)): Pin => ({ status, until, reason: 'r', by: 'admin:ops', at: at(-MIN) });
type OKorDOWN = ToolStatus.OK | ToolStatus.DOWN;

describe('systemActor (D3b)', () => {
  it.each([
    ['foot', 'system:foot'],
    ['mcp-gateway', 'system:mcp-gateway'],
  ])('%s → %s', (source, expected) => {
    expect(systemActor(source)).toBe(expected);
  });
});

describe('system writes on a missing document', () => {
  it.each<[string, () => ToolHealthDocument | null, ToolStatus, ToolErrorCode | null, string]>([
    ['markUnavailable', () => markUnavailable(unavailable())(null), DOWN, ToolErrorCode.BACKEND_UNREACHABLE, 'system:foot'],
    [
      'markIntermittent with a code',
      () => markIntermittent(intermittent({ code: ToolErrorCode.BACKEND_FAILED }))(null),
      DEGRADED,
      ToolErrorCode.BACKEND_FAILED,
      'system:mcp',
    ],
    ['markIntermittent without a code', () => markIntermittent(intermittent())(null), DEGRADED, null, 'system:mcp'],
  ])('%s creates the document', (_label, run, status, code, by) => {
    const result = run()!;
    expect(result).toMatchObject({
      id: encodeKey(KEY),
      ...KEY,
      status,
      code,
      since: T0,
      lastCheckedAt: T0,
      createdAt: T0,
      updatedAt: T0,
      version: 0,
    });
    expect(result.lastDiagnosis).toEqual({ classification: null, code, note: null, by, at: T0 });
    expect(result.history).toHaveLength(1);
    expect(result.history[0]).toMatchObject({ classification: null, code, status, by, at: T0 });
  });

  it('markAvailable creates nothing (returns null)', () => {
    expect(markAvailable(available())(null)).toBeNull();
  });
});

describe('markUnavailable (§7 first row, D3b, D12)', () => {
  it('records classification null, by system:<source>, the code, the note and the recovery estimate', () => {
    const result = markUnavailable(unavailable({ source: 'mcp-close', note: 'connection closed', expectedRecoveryAt: at(30 * MIN) }))(
      doc(),
    );
    const diagnosis = {
      classification: null,
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      note: 'connection closed',
      by: 'system:mcp-close',
      at: T0,
    };
    expect(result).toMatchObject({
      status: DOWN,
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      expectedRecoveryAt: at(30 * MIN),
      lastDiagnosis: diagnosis,
    });
    expect(result!.history).toEqual([{ ...diagnosis, status: DOWN, recoveryAt: at(30 * MIN) }]);
  });

  it.each<[string, ToolStatus, Date | undefined, Date]>([
    ['OK → DOWN without since: now', OK, undefined, T0],
    ['OK → DOWN with since: the given instant', OK, at(-3 * MIN), at(-3 * MIN)],
    ['DEGRADED → DOWN with since', DEGRADED, at(-2 * MIN), at(-2 * MIN)],
    ['DOWN → DOWN: since stays', DOWN, at(-3 * MIN), at(-60 * MIN)],
    ['DOWN → DOWN without since: since stays', DOWN, undefined, at(-60 * MIN)],
  ])('%s', (_label, from, since, expected) => {
    const result = markUnavailable(unavailable({ since }))(doc({ status: from }))!;
    expect(result.status).toBe(DOWN);
    expect(result.since).toEqual(expected);
    expect(result.lastCheckedAt).toEqual(T0);
  });

  it('a repeated write updates the code and estimate but not since', () => {
    const first = markUnavailable(unavailable({ now: at(-10 * MIN), code: ToolErrorCode.BACKEND_UNREACHABLE }))(null)!;
    const second = markUnavailable(unavailable({ code: ToolErrorCode.BACKEND_FAILED, expectedRecoveryAt: at(MIN) }))(first)!;
    expect(second).toMatchObject({
      since: at(-10 * MIN),
      lastCheckedAt: T0,
      code: ToolErrorCode.BACKEND_FAILED,
      expectedRecoveryAt: at(MIN),
    });
    expect(second.history.map((h) => h.code)).toEqual([ToolErrorCode.BACKEND_UNREACHABLE, ToolErrorCode.BACKEND_FAILED]);
  });

  it.each<[string, string | null, string | null | undefined, string | null]>([
    ['stores the description on a new entry', null, 'Reads a file on the client', 'Reads a file on the client'],
    ['keeps the stored description when none is given', 'kept', undefined, 'kept'],
    ['replaces it with a newer one', 'old', 'new', 'new'],
  ])('%s (D15b)', (_label, stored, written, expected) => {
    expect(markUnavailable(unavailable({ description: written }))(doc({ description: stored }))!.description).toBe(expected);
  });

  it.each<[string | null, string | null | undefined, string | null]>([
    [null, 't1', 't1'],
    ['t0', 't1', 't0'],
    ['t0', undefined, 't0'],
    [null, undefined, null],
  ])('tenantId stored %j, written %j → %j', (stored, written, expected) => {
    expect(markUnavailable(unavailable({ tenantId: written }))(doc({ tenantId: stored }))!.tenantId).toBe(expected);
  });

  it('stores the tenantId on a new document', () => {
    expect(markUnavailable(unavailable({ tenantId: 't7' }))(null)!.tenantId).toBe('t7');
  });

  it('keeps cooldowns, pin and createdAt', () => {
    const cooldowns = [
      {
        errorSignature: 'http-403',
        userId: 'alice',
        nextSpawnAllowedAt: at(MIN),
        hits: 2,
        lastClassification: C.USER_PERMISSION,
        lastTriggeredAt: null,
        windowMs: MIN,
      },
    ];
    const before = doc({ cooldowns });
    const result = markUnavailable(unavailable())(before)!;
    expect(result.cooldowns).toEqual(cooldowns);
    expect(result.createdAt).toEqual(before.createdAt);
  });

  it('does not mutate the stored document', () => {
    const before = doc({ status: DEGRADED });
    const snapshot = structuredClone(before);
    markUnavailable(unavailable())(before);
    expect(before).toEqual(snapshot);
  });
});

describe('markIntermittent', () => {
  it.each<[string, ToolStatus, Date]>([
    ['OK → DEGRADED moves since', OK, T0],
    ['DOWN → DEGRADED moves since', DOWN, T0],
    ['DEGRADED → DEGRADED keeps since', DEGRADED, at(-60 * MIN)],
  ])('%s', (_label, from, since) => {
    const result = markIntermittent(intermittent({ expectedRecoveryAt: at(MIN) }))(doc({ status: from }))!;
    expect(result).toMatchObject({ status: DEGRADED, since, lastCheckedAt: T0, expectedRecoveryAt: at(MIN) });
    expect(result.lastDiagnosis).toMatchObject({ classification: null, by: 'system:mcp' });
  });

  it('without an estimate stores null', () => {
    expect(markIntermittent(intermittent())(doc({ status: DOWN, expectedRecoveryAt: at(MIN) }))!.expectedRecoveryAt).toBeNull();
  });
});

describe('markAvailable', () => {
  it.each<[string, ToolStatus, Date]>([
    ['DOWN → OK', DOWN, T0],
    ['DEGRADED → OK', DEGRADED, T0],
  ])('%s', (_label, from, since) => {
    const before = doc({
      status: from,
      code: from === OK ? null : ToolErrorCode.BACKEND_UNREACHABLE,
      expectedRecoveryAt: from === OK ? null : at(MIN),
    });
    const result = markAvailable(available({ note: 'reconnected' }))(before)!;
    expect(result).toMatchObject({ status: OK, since, code: null, expectedRecoveryAt: null, lastCheckedAt: T0 });
    expect(result.history[result.history.length - 1]).toEqual({
      classification: null,
      code: null,
      note: 'reconnected',
      by: 'system:foot',
      at: T0,
      status: OK,
      recoveryAt: null,
    });
  });

  it('keeps the description of a departed client tool', () => {
    expect(markAvailable(available())(doc({ status: DOWN, description: 'desc' }))!.description).toBe('desc');
  });
});

describe('markAvailable on an entry already OK', () => {
  it('writes nothing, so reconnects never flood the history (P5)', () => {
    const before = doc({ status: OK, code: null, expectedRecoveryAt: null });
    expect(markAvailable(available({ note: 'reconnected' }))(before)).toBe(before);
  });
});

describe('pins (D4b)', () => {
  it.each<[string, OKorDOWN, () => (d: ToolHealthDocument | null) => ToolHealthDocument | null]>([
    ['markUnavailable on a pinned OK', OK, () => markUnavailable(unavailable({ since: at(-MIN) }))],
    ['markIntermittent on a pinned OK', OK, () => markIntermittent(intermittent())],
    ['markAvailable on a pinned DOWN', DOWN, () => markAvailable(available())],
    ['markIntermittent on a pinned DOWN', DOWN, () => markIntermittent(intermittent())],
  ])('%s changes the stored status underneath and keeps the pin (P6)', (_label, status, reducer) => {
    const before = doc({ status, pin: pin(status), since: at(-9 * MIN) });
    const result = reducer()(before)!;
    expect(result.status).not.toBe(status);
    expect(result.since).not.toEqual(at(-9 * MIN));
    expect(result.pin).toEqual(before.pin);
    expect(result.lastCheckedAt).toEqual(T0);
    expect(result.history).toHaveLength(1);
    expect(result.history[0]).toMatchObject({ status: result.status, classification: null, at: T0 });
    expect(result.history[0].by).toMatch(/^system:/);
  });

  it('an expired pin changes nothing either', () => {
    const result = markUnavailable(unavailable())(doc({ status: OK, pin: pin(OK, T0) }))!;
    expect(result.status).toBe(DOWN);
    expect(result.since).toEqual(T0);
  });
});

describe('history ring buffer through system writes (D12)', () => {
  it.each<[number, number, number]>([
    [25, 20, 20],
    [5, 20, 5],
    [25, 3, 3],
    [1, 1, 1],
  ])('%i writes with limit %i keep the newest %i, newest last', (writes, limit, kept) => {
    let current: ToolHealthDocument | null = null;
    for (let i = 0; i < writes; i++) {
      const write = { now: at(i * MIN), historyLimit: limit, note: `w${i}` };
      current = i % 2 === 0 ? markUnavailable(unavailable(write))(current) : markAvailable(available(write))(current);
    }
    const notes = current!.history.map((h) => h.note);
    expect(notes).toEqual(Array.from({ length: kept }, (_, i) => `w${writes - kept + i}`));
    expect(current!.history[kept - 1].at).toEqual(at((writes - 1) * MIN));
  });
});
