import { ToolHealthClassification as C } from './classification';
import { findCooldown } from './cooldown-policy';
import { DiagnosisVerdict, applyDiagnosis, clearEntry, cooldownRefused } from './diagnosis-effects';
import { DomainError } from './domain-error';
import { newDocument } from './health-entry';
import { Scope } from './scope';
import { CooldownEntry, HealthKey, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);
const PROJECT: HealthKey = { scope: Scope.PROJECT, scopeId: 'p1', toolName: 'jira' };
const ALICE: HealthKey = { scope: Scope.USER, scopeId: 'alice', toolName: 'jira' };

function doc(key: HealthKey, overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument(key, at(-H)), ...overrides };
}

function cd(errorSignature: string, lastClassification: C, userId: string | null = null): CooldownEntry {
  return {
    errorSignature,
    userId,
    nextSpawnAllowedAt: at(10 * MIN),
    hits: 2,
    lastClassification,
    lastTriggeredAt: null,
    windowMs: 10 * MIN,
  };
}

function verdict(v: Partial<DiagnosisVerdict> & Pick<DiagnosisVerdict, 'classification'>): DiagnosisVerdict {
  return { key: PROJECT, note: 'probe said so', by: 'agrajag-7', now: T0, historyLimit: 20, graceMs: 24 * H, ...v };
}

describe('applyDiagnosis: status classes', () => {
  it('TECHNICALLY_BROKEN → DOWN at PROJECT, history and lastDiagnosis, cooldown until the recovery estimate', () => {
    const after = applyDiagnosis(
      verdict({
        classification: C.TECHNICALLY_BROKEN,
        expectedRecoveryAt: at(40 * MIN),
        errorSignature: 'http-502',
        code: ToolErrorCode.BACKEND_FAILED,
      }),
    )(null)!;
    expect(after).toMatchObject({
      status: ToolStatus.DOWN,
      since: T0,
      lastCheckedAt: T0,
      expectedRecoveryAt: at(40 * MIN),
      code: ToolErrorCode.BACKEND_FAILED,
      lastDiagnosis: {
        classification: C.TECHNICALLY_BROKEN,
        note: 'probe said so',
        by: 'agrajag-7',
        at: T0,
        code: ToolErrorCode.BACKEND_FAILED,
      },
    });
    expect(after.history).toHaveLength(1);
    expect(findCooldown(after, 'http-502', null)).toMatchObject({
      nextSpawnAllowedAt: at(40 * MIN),
      lastClassification: C.TECHNICALLY_BROKEN,
    });
  });

  it.each([Scope.SESSION, Scope.USER])('TECHNICALLY_BROKEN at %s is invalid', (scope) => {
    expect(() => applyDiagnosis(verdict({ classification: C.TECHNICALLY_BROKEN, key: { ...PROJECT, scope } }))).toThrow(
      expect.objectContaining({ field: 'scope' }),
    );
  });

  it('USER_SPECIFIC_TECHNICAL → DOWN at USER with a 15 min cooldown', () => {
    const after = applyDiagnosis(
      verdict({ classification: C.USER_SPECIFIC_TECHNICAL, key: ALICE, errorSignature: 'token-expired', userId: 'alice' }),
    )(doc(ALICE))!;
    expect(after.status).toBe(ToolStatus.DOWN);
    expect(after.lastDiagnosis?.classification).toBe(C.USER_SPECIFIC_TECHNICAL);
    expect(findCooldown(after, 'token-expired', 'alice')).toMatchObject({ windowMs: 15 * MIN });
  });

  it.each([Scope.SESSION, Scope.PROJECT, Scope.TENANT, Scope.GLOBAL])('USER_SPECIFIC_TECHNICAL at %s is invalid', (scope) => {
    expect(() => applyDiagnosis(verdict({ classification: C.USER_SPECIFIC_TECHNICAL, key: { ...PROJECT, scope } }))).toThrow(DomainError);
  });

  it.each([
    ['with a short estimate', at(5 * MIN), at(5 * MIN)],
    ['without one', undefined, null],
  ])('INTERMITTENT → DEGRADED %s', (_label, expectedRecoveryAt, stored) => {
    const after = applyDiagnosis(verdict({ classification: C.INTERMITTENT, expectedRecoveryAt, errorSignature: 'flaky' }))(doc(PROJECT))!;
    expect(after).toMatchObject({ status: ToolStatus.DEGRADED, expectedRecoveryAt: stored });
    expect(findCooldown(after, 'flaky', null)?.windowMs).toBe(30_000);
  });

  it('a status class without a signature sets no cooldown', () => {
    const after = applyDiagnosis(verdict({ classification: C.INTERMITTENT }))(doc(PROJECT))!;
    expect(after.cooldowns).toEqual([]);
    expect(after.status).toBe(ToolStatus.DEGRADED);
  });

  it('a repeated verdict escalates the cooldown (D9)', () => {
    const first = applyDiagnosis(verdict({ classification: C.INTERMITTENT, errorSignature: 'flaky' }))(null)!;
    const again = applyDiagnosis(verdict({ classification: C.INTERMITTENT, errorSignature: 'flaky', now: at(31_000) }))(first)!;
    expect(findCooldown(again, 'flaky', null)?.windowMs).toBe(2 * MIN);
  });

  it('an explicit duration wins', () => {
    const after = applyDiagnosis(verdict({ classification: C.INTERMITTENT, errorSignature: 'flaky', durationMs: 3 * MIN }))(null)!;
    expect(findCooldown(after, 'flaky', null)?.nextSpawnAllowedAt).toEqual(at(3 * MIN));
  });

  it('a new document carries the tenant', () => {
    expect(applyDiagnosis(verdict({ classification: C.INTERMITTENT, tenantId: 't1' }))(null)!.tenantId).toBe('t1');
  });
});

describe('applyDiagnosis: WORKING', () => {
  const before = doc(PROJECT, {
    status: ToolStatus.DOWN,
    expectedRecoveryAt: at(H),
    cooldowns: [
      cd('flaky', C.INTERMITTENT),
      cd('502', C.TECHNICALLY_BROKEN),
      cd('token', C.USER_SPECIFIC_TECHNICAL, 'alice'),
      cd('http-403', C.USER_PERMISSION, 'alice'),
      cd('bad-input', C.USER_INPUT),
    ],
  });

  it('→ OK, expires every technical cooldown and keeps USER_PERMISSION / USER_INPUT', () => {
    const after = applyDiagnosis(verdict({ classification: C.WORKING }))(before)!;
    expect(after).toMatchObject({ status: ToolStatus.OK, expectedRecoveryAt: null, lastDiagnosis: { classification: C.WORKING } });
    expect(after.history.at(-1)).toMatchObject({ classification: C.WORKING, status: ToolStatus.OK });
    expect(after.cooldowns.map((e) => e.nextSpawnAllowedAt)).toEqual([T0, T0, T0, at(10 * MIN), at(10 * MIN)]);
    expect(after.cooldowns).toHaveLength(5);
  });

  it('sets no cooldown even when given a signature', () => {
    const after = applyDiagnosis(verdict({ classification: C.WORKING, errorSignature: 'new-sig' }))(doc(PROJECT))!;
    expect(after.cooldowns).toEqual([]);
  });
});

describe('applyDiagnosis: user classes touch only the cooldown (D11)', () => {
  const shared = doc(PROJECT, {
    status: ToolStatus.DEGRADED,
    lastCheckedAt: at(-MIN),
    lastDiagnosis: { classification: C.INTERMITTENT, code: null, note: 'n', by: 'agrajag-1', at: at(-MIN) },
    history: [
      {
        classification: C.INTERMITTENT,
        code: null,
        note: 'n',
        by: 'agrajag-1',
        at: at(-MIN),
        status: ToolStatus.DEGRADED,
        recoveryAt: null,
      },
    ],
  });

  it.each([
    [C.USER_PERMISSION, 24 * H],
    [C.USER_INPUT, 5 * MIN],
  ])("a user's %s verdict leaves the shared status, lastDiagnosis, history and lastCheckedAt untouched", (classification, window) => {
    const after = applyDiagnosis(verdict({ classification, errorSignature: 'http-403', userId: 'alice' }))(shared)!;
    expect(after.status).toBe(shared.status);
    expect(after.since).toBe(shared.since);
    expect(after.lastDiagnosis).toBe(shared.lastDiagnosis);
    expect(after.history).toBe(shared.history);
    expect(after.lastCheckedAt).toBe(shared.lastCheckedAt);
    expect(after.cooldowns).toEqual([
      expect.objectContaining({ errorSignature: 'http-403', userId: 'alice', lastClassification: classification, windowMs: window }),
    ]);
  });

  it('on a key without a document it creates a neutral OK document (D7)', () => {
    const after = applyDiagnosis(verdict({ classification: C.USER_PERMISSION, key: ALICE, errorSignature: 'http-403', userId: 'alice' }))(
      null,
    )!;
    expect(after).toMatchObject({ status: ToolStatus.OK, lastDiagnosis: null, history: [], lastCheckedAt: null });
    expect(after.cooldowns).toHaveLength(1);
  });

  it.each([undefined, null, ''])('without an error signature (%p) it is invalid', (errorSignature) => {
    expect(() => applyDiagnosis(verdict({ classification: C.USER_PERMISSION, errorSignature }))).toThrow(
      expect.objectContaining({ field: 'errorSignature' }),
    );
  });

  it('an unknown classification is invalid', () => {
    expect(() => applyDiagnosis(verdict({ classification: 'SOMETHING' as C }))).toThrow(
      expect.objectContaining({ field: 'classification' }),
    );
  });
});

describe('clearEntry (tool_health_clear)', () => {
  it('resets to OK, expires all active cooldowns, records who cleared', () => {
    const before = doc(PROJECT, {
      status: ToolStatus.DOWN,
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      cooldowns: [cd('http-403', C.USER_PERMISSION, 'alice'), cd('flaky', C.INTERMITTENT)],
    });
    const after = clearEntry({ key: PROJECT, by: 'agrajag-9', note: 'fixed upstream', now: T0, historyLimit: 20 })(before)!;
    expect(after).toMatchObject({ status: ToolStatus.OK, code: null, since: T0, lastCheckedAt: T0 });
    expect(after.cooldowns.map((e) => e.nextSpawnAllowedAt)).toEqual([T0, T0]);
    expect(after.history.at(-1)).toEqual({
      classification: null,
      code: null,
      note: 'fixed upstream',
      by: 'agrajag-9',
      at: T0,
      status: ToolStatus.OK,
      recoveryAt: null,
    });
  });

  it('no document → no write', () => {
    expect(clearEntry({ key: PROJECT, by: 'agrajag-9', now: T0, historyLimit: 20 })(null)).toBeNull();
  });
});

describe('applyDiagnosis: a full cooldown list (D7 with D20)', () => {
  const full = () => doc(PROJECT, { cooldowns: Array.from({ length: 200 }, (_, i) => cd(`sig-${i}`, C.INTERMITTENT)) });

  it('a TECHNICALLY_BROKEN verdict with a new signature records DOWN; only the cooldown is refused', () => {
    const v = verdict({ classification: C.TECHNICALLY_BROKEN, errorSignature: 'http-new' });
    const after = applyDiagnosis(v)(full())!;
    expect(after.status).toBe(ToolStatus.DOWN);
    expect(after.history.at(-1)).toMatchObject({ classification: C.TECHNICALLY_BROKEN, status: ToolStatus.DOWN });
    expect(after.cooldowns).toHaveLength(200);
    expect(findCooldown(after, 'http-new', null)).toBeUndefined();
    expect(cooldownRefused(v, after)).toBe(true);
  });

  it('a verdict that is nothing but a cooldown still gets the cap’s 409', () => {
    expect(() =>
      applyDiagnosis(verdict({ classification: C.USER_PERMISSION, errorSignature: 'http-403', userId: 'alice' }))(full()),
    ).toThrow(DomainError);
  });

  it('with room, nothing is refused', () => {
    const v = verdict({ classification: C.TECHNICALLY_BROKEN, errorSignature: 'http-new' });
    expect(cooldownRefused(v, applyDiagnosis(v)(null))).toBe(false);
  });
});
