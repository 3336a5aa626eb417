import { AUTO_CLEAR_ACTOR, applySuccess } from './auto-clear';
import { ToolHealthClassification as C } from './classification';
import { Scope } from './scope';
import { CooldownEntry, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';
import { MINUTE as MIN, T0, aCooldownEntry, aKeyAt, aToolHealthDocument, at } from '../../test/factories';

const LIMIT = 20;

/** A PROJECT document, OK since an hour before the success the tests report at T0. */
function doc(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return aToolHealthDocument({
    ...aKeyAt(Scope.PROJECT),
    since: at(-60 * MIN),
    createdAt: at(-60 * MIN),
    updatedAt: at(-60 * MIN),
    ...overrides,
  });
}

/** A ten-minute cooldown of `errorSignature` under `lastClassification`, hit once. */
function cd(errorSignature: string, lastClassification: C, userId: string | null = null, expiry = at(10 * MIN)): CooldownEntry {
  return aCooldownEntry({ errorSignature, userId, nextSpawnAllowedAt: expiry, hits: 1, lastClassification, windowMs: 10 * MIN });
}

const success = (d: ToolHealthDocument, userId: string | null = 'alice', errorSignatures?: string[]) =>
  applySuccess(d, { userId, errorSignatures, now: T0, historyLimit: LIMIT });

describe('applySuccess: status (D10)', () => {
  it('unpinned DOWN → OK with a WORKING history item by auto-clear', () => {
    const before = doc({ status: ToolStatus.DOWN, code: ToolErrorCode.BACKEND_UNREACHABLE, expectedRecoveryAt: at(30 * MIN) });
    const after = success(before);
    expect(after).toMatchObject({ status: ToolStatus.OK, since: T0, lastCheckedAt: T0, expectedRecoveryAt: null, code: null });
    expect(after.history).toEqual([
      { classification: C.WORKING, code: null, note: null, by: AUTO_CLEAR_ACTOR, at: T0, status: ToolStatus.OK, recoveryAt: null },
    ]);
    expect(after.lastDiagnosis).toMatchObject({ classification: C.WORKING, by: 'auto-clear' });
    expect(before.status).toBe(ToolStatus.DOWN);
  });

  it.each([
    ['no estimate', null, ToolStatus.OK],
    ['estimate passed', at(-1), ToolStatus.OK],
    ['estimate exactly now', T0, ToolStatus.OK],
    ['estimate still ahead', at(5 * MIN), ToolStatus.DEGRADED],
  ])('DEGRADED with %s → %s', (_label, expectedRecoveryAt, status) => {
    expect(success(doc({ status: ToolStatus.DEGRADED, expectedRecoveryAt })).status).toBe(status);
  });

  it('a DEGRADED entry whose estimate is ahead is the same reference', () => {
    const d = doc({ status: ToolStatus.DEGRADED, expectedRecoveryAt: at(5 * MIN) });
    expect(success(d)).toBe(d);
  });

  // Changed with D18/P50 (issue 11, sequence 4): the pin stays and keeps overriding on read, but
  // the stored status beneath it follows the success, so a stale DOWN does not resurface later.
  it('a pinned document keeps its pin while its stored DOWN is disproven beneath it', () => {
    const pin = { status: ToolStatus.OK, until: at(MIN), reason: 'r', by: 'admin:x', at: at(-MIN) } as const;
    const after = success(doc({ status: ToolStatus.DOWN, pin }));
    expect(after).toMatchObject({ status: ToolStatus.OK, pin });
  });

  it('an expired pin no longer protects the status', () => {
    const d = doc({ status: ToolStatus.DOWN, pin: { status: ToolStatus.DOWN, until: T0, reason: 'r', by: 'admin:x', at: at(-MIN) } });
    expect(success(d).status).toBe(ToolStatus.OK);
  });

  it('OK with no matching cooldowns: same reference (no write)', () => {
    const d = doc({ cooldowns: [cd('http-403', C.USER_PERMISSION, 'alice'), cd('t', C.INTERMITTENT)] });
    expect(success(d)).toBe(d);
    expect(success(d, 'alice', [])).toBe(d);
  });
});

describe('applySuccess: cooldowns (D10)', () => {
  const entries = [
    cd('http-403', C.USER_PERMISSION, 'alice'),
    cd('http-403', C.USER_PERMISSION, 'bob'),
    cd('token', C.USER_SPECIFIC_TECHNICAL, 'alice'),
    cd('token', C.USER_SPECIFIC_TECHNICAL, 'bob'),
    cd('502', C.TECHNICALLY_BROKEN),
    cd('flaky', C.INTERMITTENT),
    cd('input', C.USER_INPUT),
    cd('old', C.TECHNICALLY_BROKEN, null, at(-MIN)),
  ];
  const expiredOf = (d: ToolHealthDocument) =>
    d.cooldowns
      .filter((e, i) => e.nextSpawnAllowedAt.getTime() !== entries[i].nextSpawnAllowedAt.getTime())
      .map((e) => `${e.errorSignature}/${e.userId ?? '*'}`);

  it.each([
    ['no names: technical user/scope-wide classes for alice', 'alice', undefined, ['token/alice', '502/*']],
    ['empty names behave like none', 'alice', [], ['token/alice', '502/*']],
    ['no names, caller without userId: scope-wide only', null, undefined, ['502/*']],
    ['named: exactly those, any class, own or scope-wide', 'alice', ['http-403', 'flaky'], ['http-403/alice', 'flaky/*']],
    ["named for bob: never alice's", 'bob', ['http-403', 'token'], ['http-403/bob', 'token/bob']],
    ['named but unknown', 'alice', ['nope'], []],
  ])('%s', (_label, userId, names, expired) => {
    const before = doc({ cooldowns: entries });
    const after = success(before, userId, names);
    expect(expiredOf(after)).toEqual(expired);
    for (const e of after.cooldowns) {
      if (expired.includes(`${e.errorSignature}/${e.userId ?? '*'}`)) expect(e.nextSpawnAllowedAt).toEqual(T0);
    }
    expect(after.cooldowns).toHaveLength(entries.length);
    if (expired.length === 0) expect(after).toBe(before);
    else expect(after).toMatchObject({ lastCheckedAt: T0, updatedAt: T0, status: ToolStatus.OK, history: [] });
  });

  it('an already expired entry is left as it is', () => {
    const d = doc({ cooldowns: [entries[7]] });
    expect(success(d, 'alice', ['old'])).toBe(d);
  });

  it('clears status and cooldowns in one write', () => {
    const after = success(doc({ status: ToolStatus.DOWN, cooldowns: [cd('502', C.TECHNICALLY_BROKEN)] }));
    expect(after.status).toBe(ToolStatus.OK);
    expect(after.cooldowns[0].nextSpawnAllowedAt).toEqual(T0);
  });
});
