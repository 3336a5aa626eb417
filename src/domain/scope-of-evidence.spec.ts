import { ToolHealthClassification as C } from './classification';
import { DomainErrorCode } from './domain-error';
import { newDocument } from './health-entry';
import { Scope } from './scope';
import { cooldownBindsCaller, cooldownOwner, documentTenant, failureMarkTargets } from './scope-of-evidence';
import { CooldownEntry, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);

const doc = (scope: Scope, scopeId: string | null, overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument => ({
  ...newDocument({ scope, scopeId, toolName: 'jira' }, at(-H)),
  ...overrides,
});
const pin = (status: ToolStatus.OK | ToolStatus.DOWN, until: Date): Pin => ({ status, until, reason: 'r', by: 'admin:a', at: at(-H) });
const entry = (o: Partial<CooldownEntry>): CooldownEntry => ({
  errorSignature: 'http-502',
  userId: null,
  nextSpawnAllowedAt: at(10 * MIN),
  hits: 0,
  lastClassification: C.INTERMITTENT,
  lastTriggeredAt: null,
  windowMs: 10 * MIN,
  ...o,
});

const user = doc(Scope.USER, 'alice');
const project = doc(Scope.PROJECT, 'p1');
const acmePinned = doc(Scope.TENANT, 'acme', { pin: pin(ToolStatus.OK, at(H)) });
const globalDown = doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN, expectedRecoveryAt: at(2 * H) });

describe('failureMarkTargets (D18)', () => {
  const session = doc(Scope.SESSION, 's1');
  it('a technical failure marks the reach it is given (the evaluation bounds it)', () => {
    expect(failureMarkTargets([session, user, project, globalDown], { classification: null, inCooldown: false })).toEqual([
      session.id,
      user.id,
      project.id,
      globalDown.id,
    ]);
    expect(failureMarkTargets([project, acmePinned], { classification: C.INTERMITTENT, inCooldown: false })).toEqual([
      project.id,
      acmePinned.id,
    ]);
  });

  it.each([C.USER_PERMISSION, C.USER_INPUT])("%s marks only the caller's own SESSION and USER documents", (classification) => {
    expect(failureMarkTargets([session, user, project, globalDown], { classification, inCooldown: false })).toEqual([session.id, user.id]);
  });

  it('a failure in cooldown marks nothing', () => {
    expect(failureMarkTargets([session, user, project, globalDown], { classification: null, inCooldown: true })).toEqual([]);
  });
});

describe('cooldownBindsCaller (§6, D18)', () => {
  it.each([
    ['own entry', entry({ userId: 'alice', lastClassification: C.USER_PERMISSION }), 'alice', true],
    ["another user's entry", entry({ userId: 'alice', lastClassification: C.USER_PERMISSION }), 'bob', false],
    ['scope-wide technical entry', entry({}), 'bob', true],
    ['scope-wide technical entry, anonymous caller', entry({}), null, true],
    ['scope-wide USER_PERMISSION entry', entry({ lastClassification: C.USER_PERMISSION }), 'bob', false],
    ['scope-wide USER_INPUT entry, anonymous caller', entry({ lastClassification: C.USER_INPUT }), null, false],
  ])('%s → %p', (_label, e, caller, expected) => {
    expect(cooldownBindsCaller(e, caller)).toBe(expected);
  });
});

describe('cooldownOwner (D18)', () => {
  const key = (scope: Scope, scopeId: string | null) => ({ scope, scopeId, toolName: 'jira' });
  it('a named user wins', () => {
    expect(cooldownOwner(key(Scope.PROJECT, 'p1'), C.USER_PERMISSION, 'bob')).toBe('bob');
  });
  it('a user-class cooldown at USER belongs to that user', () => {
    expect(cooldownOwner(key(Scope.USER, 'alice'), C.USER_INPUT, null)).toBe('alice');
  });
  it.each([Scope.SESSION, Scope.PROJECT, Scope.TENANT, Scope.GLOBAL])(
    'a user-class cooldown at %s without a user is refused, naming userId',
    (scope) => {
      expect(() => cooldownOwner(key(scope, scope === Scope.GLOBAL ? null : 'x'), C.USER_PERMISSION, undefined)).toThrow(
        expect.objectContaining({ code: DomainErrorCode.INVALID_ARGUMENT, field: 'userId' }),
      );
    },
  );
  it('technical cooldowns stay scope-wide', () => {
    expect(cooldownOwner(key(Scope.GLOBAL, null), C.TECHNICALLY_BROKEN, undefined)).toBeNull();
  });
});

describe('documentTenant (D12, D18)', () => {
  const k = (scope: Scope, scopeId: string | null) => ({ scope, scopeId, toolName: 'jira' });
  it('GLOBAL has none, whoever writes and whatever was stored', () => {
    expect(documentTenant(k(Scope.GLOBAL, null), { tenantId: 'first-writer' }, 'caller')).toBeNull();
  });
  it('TENANT is its own', () => {
    expect(documentTenant(k(Scope.TENANT, 'acme'), { tenantId: 'other' }, 'caller')).toBe('acme');
  });
  it('otherwise the stored one, the hint only for a new document', () => {
    expect(documentTenant(k(Scope.PROJECT, 'p1'), { tenantId: 't-100' }, null)).toBe('t-100');
    expect(documentTenant(k(Scope.PROJECT, 'p1'), { tenantId: 't-100' }, 'other')).toBe('t-100');
    expect(documentTenant(k(Scope.PROJECT, 'p1'), null, 'hint')).toBe('hint');
    expect(documentTenant(k(Scope.PROJECT, 'p1'), { tenantId: null }, null)).toBeNull();
  });
  it('D20: a stored null stays null — no later caller adopts the document', () => {
    expect(documentTenant(k(Scope.PROJECT, 'p1'), { tenantId: null }, 'acme')).toBeNull();
  });
});
