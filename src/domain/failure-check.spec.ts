import { CascadeReason } from './cascade';
import { ToolHealthClassification as C } from './classification';
import { cooldownEntryKey } from './cooldown-policy';
import { DomainErrorCode } from './domain-error';
import { FailureReason, FailureReport, applyBufferedBookkeeping, checkFailure, recordFailure, recordHit } from './failure-check';
import { newDocument } from './health-entry';
import { encodeKey } from './health-key';
import { Scope } from './scope';
import { CallContext, CooldownEntry, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);
const TOOL = 'jira';

function doc(scope: Scope, scopeId: string | null, overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument({ scope, scopeId, toolName: TOOL }, at(-H)), ...overrides };
}

function cooldown(overrides: Partial<CooldownEntry>): CooldownEntry {
  return {
    errorSignature: 'http-403',
    userId: null,
    nextSpawnAllowedAt: at(24 * H),
    hits: 0,
    lastClassification: C.USER_PERMISSION,
    lastTriggeredAt: null,
    windowMs: 24 * H,
    ...overrides,
  };
}

const byId = (...docs: ToolHealthDocument[]) => new Map(docs.map((d) => [d.id, d]));
const alice: CallContext = { userId: 'alice', projectId: 'p1', tenantId: 't1' };
const bob: CallContext = { userId: 'bob', projectId: 'p1', tenantId: 't1' };

function check(context: CallContext, docs: ToolHealthDocument[], extra: Partial<FailureReport> = {}) {
  return checkFailure({
    toolName: TOOL,
    context,
    code: ToolErrorCode.BACKEND_FAILED,
    errorSignature: 'http-403',
    entries: byId(...docs),
    now: T0,
    ...extra,
  });
}

// §4 story: Jira has a global outage; Alice already has a 403 cooldown on her USER document.
const globalDown = doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN, expectedRecoveryAt: at(2 * H) });
const aliceUser = doc(Scope.USER, 'alice', { cooldowns: [cooldown({ userId: 'alice' })] });

describe('checkFailure: the §4 story', () => {
  it("Alice's 403 meets her cooldown: no spawn, the hit counts on her USER document", () => {
    const d = check(alice, [globalDown, aliceUser]);
    expect(d).toMatchObject({
      spawn: false,
      reason: FailureReason.IN_COOLDOWN,
      reflectError: true,
      hit: { docId: aliceUser.id, errorSignature: 'http-403', userId: 'alice' },
      retryAt: at(24 * H),
      retryAfterSeconds: 24 * 3600,
      cooldownWrite: null,
      coalescingKey: 'jira:http-403',
    });
    expect(d.effective.status).toBe(ToolStatus.DOWN);
    // A failure that met its cooldown is a repetition: it marks no lastFailureAt (D18).
    expect(d.failureMarks).toEqual([]);
  });

  it("Bob's 403 does not match Alice's entry; no spawn because the tool is known down", () => {
    const d = check(bob, [globalDown, aliceUser]);
    expect(d).toMatchObject({
      spawn: false,
      reason: FailureReason.KNOWN_DOWN,
      reflectError: true,
      hit: null,
      retryAt: at(2 * H),
      retryAfterSeconds: 2 * 3600,
    });
    expect(d.failureMarks).toEqual([globalDown.id]);
  });
});

describe('checkFailure: matching (D8)', () => {
  it("Bob never matches Alice's entry, even on a shared PROJECT document", () => {
    const project = doc(Scope.PROJECT, 'p1', { cooldowns: [cooldown({ userId: 'alice' })] });
    expect(check(bob, [project])).toMatchObject({ spawn: true, reason: FailureReason.ELIGIBLE, hit: null });
    expect(check(alice, [project]).hit).toEqual({ docId: project.id, errorSignature: 'http-403', userId: 'alice' });
  });

  it('the narrowest matching document counts the hit; retryAt is when the wider one ends too (P51)', () => {
    const project = doc(Scope.PROJECT, 'p1', {
      cooldowns: [cooldown({ lastClassification: C.INTERMITTENT, nextSpawnAllowedAt: at(5 * MIN) })],
    });
    const tenant = doc(Scope.TENANT, 't1', {
      cooldowns: [cooldown({ lastClassification: C.INTERMITTENT, nextSpawnAllowedAt: at(9 * MIN) })],
    });
    const d = check(bob, [tenant, project]);
    expect(d.hit?.docId).toBe(project.id);
    expect(d.retryAt).toEqual(at(9 * MIN));
  });

  it("within a document the caller's own entry is narrower than the scope-wide one", () => {
    const project = doc(Scope.PROJECT, 'p1', {
      cooldowns: [
        cooldown({ lastClassification: C.INTERMITTENT, nextSpawnAllowedAt: at(5 * MIN) }),
        cooldown({ userId: 'alice', nextSpawnAllowedAt: at(7 * MIN) }),
      ],
    });
    expect(check(alice, [project]).hit).toEqual({ docId: project.id, errorSignature: 'http-403', userId: 'alice' });
    expect(check(bob, [project]).hit).toEqual({ docId: project.id, errorSignature: 'http-403', userId: null });
  });

  it.each([
    ['other signature', cooldown({ errorSignature: 'http-500' })],
    ['expired', cooldown({ nextSpawnAllowedAt: at(-1) })],
    ['expiring exactly now', cooldown({ nextSpawnAllowedAt: T0 })],
  ])('%s entry does not match', (_label, entry) => {
    expect(check(alice, [doc(Scope.PROJECT, 'p1', { cooldowns: [entry] })])).toMatchObject({ spawn: true, hit: null });
  });

  it('a caller without userId matches only scope-wide entries', () => {
    const project = doc(Scope.PROJECT, 'p1', { cooldowns: [cooldown({ userId: 'alice' })] });
    expect(check({ projectId: 'p1' }, [project]).hit).toBeNull();
    const wide = doc(Scope.PROJECT, 'p1', { cooldowns: [cooldown({ lastClassification: C.INTERMITTENT })] });
    expect(check({ projectId: 'p1' }, [wide]).hit?.userId).toBeNull();
  });

  it("a scope-wide entry of a user class binds nobody (§6: Bob is never stopped by Alice's USER_PERMISSION)", () => {
    const legacy = doc(Scope.PROJECT, 'p1', { cooldowns: [cooldown({ userId: null, lastClassification: C.USER_PERMISSION })] });
    expect(check(bob, [legacy])).toMatchObject({ spawn: true, reason: FailureReason.ELIGIBLE, hit: null });
    expect(check({ projectId: 'p1' }, [legacy]).hit).toBeNull();
  });

  it("documents outside the caller's cascade are ignored", () => {
    const otherProject = doc(Scope.PROJECT, 'p2', { status: ToolStatus.DOWN, cooldowns: [cooldown({})] });
    expect(check(alice, [otherProject])).toMatchObject({ spawn: true, failureMarks: [] });
  });
});

describe('checkFailure: status', () => {
  it('RETESTING does not block a spawn', () => {
    const retesting = doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN, expectedRecoveryAt: at(-MIN) });
    const d = check(alice, [retesting]);
    expect(d.effective.reason).toBe(CascadeReason.RETESTING);
    expect(d).toMatchObject({ spawn: true, reason: FailureReason.ELIGIBLE, reflectError: false, retryAt: null });
  });

  it('DEGRADED does not block a spawn', () => {
    expect(check(alice, [doc(Scope.PROJECT, 'p1', { status: ToolStatus.DEGRADED })]).spawn).toBe(true);
  });

  it('known down without an estimate: no spawn, no retry instant', () => {
    const d = check(alice, [doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN })]);
    expect(d).toMatchObject({ reason: FailureReason.KNOWN_DOWN, retryAt: null, retryAfterSeconds: null });
  });

  it('retryAfterSeconds rounds up', () => {
    const project = doc(Scope.PROJECT, 'p1', { cooldowns: [cooldown({ userId: 'alice', nextSpawnAllowedAt: at(1_001) })] });
    expect(check(alice, [project]).retryAfterSeconds).toBe(2);
  });
});

describe('checkFailure: checker classification (§7 second row)', () => {
  it('USER_PERMISSION for Alice → cooldown at USER alice, no spawn', () => {
    const d = check(alice, [], { classification: C.USER_PERMISSION });
    expect(d).toMatchObject({
      spawn: false,
      reason: FailureReason.CLASSIFIED_BY_CHECKER,
      reflectError: true,
      hit: null,
      cooldownWrite: {
        key: { scope: Scope.USER, scopeId: 'alice', toolName: TOOL },
        errorSignature: 'http-403',
        userId: 'alice',
        classification: C.USER_PERMISSION,
      },
    });
  });

  it("Bob's first 403 without a classification → spawn", () => {
    expect(check(bob, [aliceUser])).toMatchObject({
      spawn: true,
      reason: FailureReason.ELIGIBLE,
      reflectError: false,
      cooldownWrite: null,
      hit: null,
    });
  });

  it.each([
    [C.USER_INPUT, { userId: 'alice', projectId: 'p1' }, { scope: Scope.USER, scopeId: 'alice' }, 'alice'],
    [C.INTERMITTENT, alice, { scope: Scope.PROJECT, scopeId: 'p1' }, null],
    [C.TECHNICALLY_BROKEN, { userId: 'alice', tenantId: 't1' }, { scope: Scope.TENANT, scopeId: 't1' }, null],
    // Changed with D20: one user's problem — at USER with the caller's userId (was GLOBAL, userId null).
    [C.USER_SPECIFIC_TECHNICAL, { sessionId: 's1', userId: 'alice' }, { scope: Scope.USER, scopeId: 'alice' }, 'alice'],
  ])('%s with context %j → %j, userId %p', (classification, context, key, userId) => {
    expect(check(context, [], { classification }).cooldownWrite).toEqual({
      key: { ...key, toolName: TOOL },
      errorSignature: 'http-403',
      userId,
      classification,
    });
  });

  // Changed with D18/P50: a user-class verdict without a user gets no cooldown (it would stop
  // every other user of the scope); the answer is still "do not spawn".
  it.each([[{ projectId: 'p1', tenantId: 't1' }], [{}], [{ sessionId: 's1' }]])(
    'USER_PERMISSION without a userId (%j) → no cooldown, no spawn',
    (context) => {
      expect(check(context, [], { classification: C.USER_PERMISSION })).toMatchObject({
        spawn: false,
        reason: FailureReason.CLASSIFIED_BY_CHECKER,
        cooldownWrite: null,
        retryAt: null,
      });
    },
  );

  // USER_SPECIFIC_TECHNICAL is one user's problem too; without a userId no cooldown, and the answer says so (D20).
  it.each([[{ projectId: 'p1', tenantId: 't1' }], [{}]])(
    'USER_SPECIFIC_TECHNICAL without a userId (%j) → no cooldown, said so',
    (context) => {
      const d = check(context, [], { classification: C.USER_SPECIFIC_TECHNICAL });
      expect(d).toMatchObject({ spawn: false, reason: FailureReason.CLASSIFIED_BY_CHECKER, cooldownWrite: null });
      expect(d.why.join('\n')).toMatch(/no cooldown: USER_SPECIFIC_TECHNICAL is one user's problem and the call names no userId/);
    },
  );

  it('still counts the hit when its active cooldown matched, and then writes nothing (issue 13, P52)', () => {
    const d = check(alice, [globalDown, aliceUser], { classification: C.USER_PERMISSION });
    expect(d.reason).toBe(FailureReason.CLASSIFIED_BY_CHECKER);
    expect(d.hit?.docId).toBe(aliceUser.id);
    expect(d.cooldownWrite).toBeNull();
    expect(d.failureMarks).toEqual([]);
    expect(d.retryAt).toEqual(at(24 * H));
  });

  it('a different class on the running entry is still written (D9: it refreshes lastClassification)', () => {
    const d = check(alice, [aliceUser], { classification: C.USER_INPUT });
    expect(d.cooldownWrite).toMatchObject({ userId: 'alice', classification: C.USER_INPUT });
  });

  it("a user-class failure marks only the user's own documents (D18)", () => {
    const project = doc(Scope.PROJECT, 'p1', { status: ToolStatus.DEGRADED });
    const session = doc(Scope.SESSION, 's1');
    const d = check({ ...alice, sessionId: 's1' }, [project, session, globalDown], {
      classification: C.USER_INPUT,
      errorSignature: 'schema',
    });
    expect(d.failureMarks).toEqual([session.id]);
  });

  it('a technical failure marks up to the narrowest pin in force, not past it (D18)', () => {
    const tenant = doc(Scope.TENANT, 't1', { pin: { status: ToolStatus.OK, until: at(H), reason: 'own jira', by: 'admin:a', at: at(-H) } });
    const project = doc(Scope.PROJECT, 'p1');
    const d = check(alice, [project, tenant, globalDown], { errorSignature: 'http-502' });
    expect(d.failureMarks).toEqual([project.id, tenant.id]);
  });

  it('a checker cooldown under a wider, longer block reports the wider end (P51)', () => {
    const tenant = doc(Scope.TENANT, 't1', {
      cooldowns: [cooldown({ errorSignature: 'http-502', lastClassification: C.INTERMITTENT, nextSpawnAllowedAt: at(2 * H) })],
    });
    expect(check(alice, [tenant], { classification: C.INTERMITTENT, errorSignature: 'http-502' }).retryAt).toEqual(at(2 * H));
  });

  it("retryAt under a DOWN pin is the pin's end when the stored status beneath is not down then (P51)", () => {
    const pinned = doc(Scope.GLOBAL, null, {
      pin: { status: ToolStatus.DOWN, until: at(30 * MIN), reason: 'maintenance', by: 'admin:a', at: at(-H) },
    });
    expect(check(bob, [pinned], { errorSignature: 'http-502' })).toMatchObject({ reason: FailureReason.KNOWN_DOWN, retryAt: at(30 * MIN) });
    const stillDown = { ...pinned, status: ToolStatus.DOWN, expectedRecoveryAt: at(H) };
    expect(check(bob, [stillDown], { errorSignature: 'http-502' }).retryAt).toEqual(at(H));
  });

  it('WORKING is not a failure classification', () => {
    expect(() => check(alice, [], { classification: C.WORKING })).toThrow(
      expect.objectContaining({ code: DomainErrorCode.INVALID_ARGUMENT, field: 'classification' }),
    );
  });

  it('a null classification is the same as none', () => {
    expect(check(bob, [], { classification: null }).spawn).toBe(true);
  });
});

describe('checkFailure: not a tool fault', () => {
  it.each([ToolErrorCode.NOT_REGISTERED, ToolErrorCode.DISALLOWED])('%s touches nothing', (code) => {
    const d = check(alice, [globalDown, aliceUser], { code, classification: C.USER_PERMISSION });
    expect(d).toMatchObject({
      spawn: false,
      reason: FailureReason.NOT_A_TOOL_FAULT,
      reflectError: true,
      hit: null,
      cooldownWrite: null,
      failureMarks: [],
      retryAt: null,
      retryAfterSeconds: null,
    });
  });

  it('BACKEND_UNREACHABLE is a tool fault', () => {
    expect(check(alice, [], { code: ToolErrorCode.BACKEND_UNREACHABLE }).reason).toBe(FailureReason.ELIGIBLE);
  });
});

describe('bookkeeping updaters', () => {
  const project = doc(Scope.PROJECT, 'p1', {
    cooldowns: [cooldown({ hits: 2, lastTriggeredAt: at(-MIN) }), cooldown({ userId: 'alice', hits: 5 })],
  });

  it('recordHit increments hits and sets lastTriggeredAt on that entry only', () => {
    const after = recordHit(project, { errorSignature: 'http-403', userId: null }, T0);
    expect(after.cooldowns).toEqual([{ ...project.cooldowns[0], hits: 3, lastTriggeredAt: T0 }, project.cooldowns[1]]);
    expect(project.cooldowns[0].hits).toBe(2);
  });

  it('recordHit on a vanished entry changes nothing', () => {
    expect(recordHit(project, { errorSignature: 'http-403', userId: 'bob' }, T0)).toBe(project);
  });

  it('recordFailure sets lastFailureAt', () => {
    expect(recordFailure(project, T0).lastFailureAt).toEqual(T0);
    expect(project.lastFailureAt).toBeNull();
  });

  it('a buffered flush adds counts, keeps the latest instants and ignores vanished entries', () => {
    const after = applyBufferedBookkeeping(
      { ...project, lastFailureAt: at(MIN) },
      {
        hits: new Map([
          [cooldownEntryKey('http-403', null), { count: 4, lastTriggeredAt: at(-2 * MIN) }],
          [cooldownEntryKey('http-403', 'alice'), { count: 1, lastTriggeredAt: at(30_000) }],
          [cooldownEntryKey('http-403', 'bob'), { count: 9, lastTriggeredAt: T0 }],
        ]),
        lastFailureAt: T0,
      },
    );
    expect(after.cooldowns.map((e) => [e.userId, e.hits, e.lastTriggeredAt])).toEqual([
      [null, 6, at(-MIN)],
      ['alice', 6, at(30_000)],
    ]);
    expect(after.lastFailureAt).toEqual(at(MIN));
  });

  it('an empty flush returns the same document', () => {
    expect(applyBufferedBookkeeping(project, { hits: new Map(), lastFailureAt: null })).toBe(project);
  });

  it('ids in failureMarks are the encoded keys', () => {
    expect(check(alice, [project], { errorSignature: 'http-500' }).failureMarks).toEqual([
      encodeKey({ scope: Scope.PROJECT, scopeId: 'p1', toolName: TOOL }),
    ]);
  });
});
