import { CascadeReason, EffectiveHealth, isKnownDown, resolveCascade } from './cascade';
import { encodeKey } from './health-key';
import { newDocument } from './health-entry';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { CallContext, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const NOW = new Date('2026-05-23T14:30:00Z');
const CREATED = new Date('2026-05-23T08:00:00Z');
const MIN = 60_000;
const at = (ms: number) => new Date(NOW.getTime() + ms);
const TOOL = 'jira_search';
const FULL: CallContext = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' };

const IDS: Record<Scope, string | null> = {
  [Scope.SESSION]: 's1',
  [Scope.USER]: 'alice',
  [Scope.PROJECT]: 'p1',
  [Scope.TENANT]: 't1',
  [Scope.GLOBAL]: null,
};

/** Entry kinds, named so the tables read like the decisions they check. */
type Kind =
  | 'ok'
  | 'down'
  | 'degraded'
  | 'retestingDown'
  | 'retestingDegraded'
  | 'downFuture'
  | 'pinOk'
  | 'pinDown'
  | 'expiredPinOk'
  /** A pin leaves the stored status alone (pin.ts): the pin's status is what reads. */
  | 'pinOkOverDown'
  | 'pinOkOverRetesting'
  | 'pinDownOverOk'
  | 'expiredPinOkOverDown';

function pin(status: ToolStatus.OK | ToolStatus.DOWN, until = at(60 * MIN)): Pin {
  return { status, until, reason: 'tenant runs its own backend', by: 'admin:ops', at: at(-60 * MIN) };
}

function patchOf(kind: Kind): Partial<ToolHealthDocument> {
  const down = { status: ToolStatus.DOWN, code: ToolErrorCode.BACKEND_FAILED, since: at(-30 * MIN) };
  switch (kind) {
    case 'ok':
      return {};
    case 'down':
      return down;
    case 'downFuture':
      return { ...down, expectedRecoveryAt: at(10 * MIN) };
    case 'degraded':
      return { status: ToolStatus.DEGRADED, since: at(-30 * MIN) };
    case 'retestingDown':
      return { ...down, expectedRecoveryAt: at(-MIN) };
    case 'retestingDegraded':
      return { status: ToolStatus.DEGRADED, expectedRecoveryAt: NOW };
    case 'pinOk':
      return { status: ToolStatus.OK, pin: pin(ToolStatus.OK) };
    case 'pinDown':
      return { ...down, pin: pin(ToolStatus.DOWN) };
    case 'expiredPinOk':
      return { status: ToolStatus.OK, pin: pin(ToolStatus.OK, NOW) };
    case 'pinOkOverDown':
      return { ...down, pin: pin(ToolStatus.OK) };
    case 'pinOkOverRetesting':
      return { ...down, expectedRecoveryAt: at(-MIN), pin: pin(ToolStatus.OK) };
    case 'pinDownOverOk':
      return { status: ToolStatus.OK, pin: pin(ToolStatus.DOWN) };
    case 'expiredPinOkOverDown':
      return { ...down, pin: pin(ToolStatus.OK, at(-1)) };
  }
}

function doc(scope: Scope, kind: Kind, toolName = TOOL, scopeId = IDS[scope]): ToolHealthDocument {
  return { ...newDocument({ scope, scopeId, toolName }, CREATED), ...patchOf(kind) };
}

type Layout = Partial<Record<Scope, Kind>>;

function docsOf(layout: Layout): ToolHealthDocument[] {
  return (Object.entries(layout) as [Scope, Kind][]).map(([scope, kind]) => doc(scope, kind));
}

const resolve = (docs: readonly ToolHealthDocument[] | Map<string, ToolHealthDocument>, context: CallContext = FULL) =>
  resolveCascade(TOOL, context, docs, NOW);

const summary = (e: EffectiveHealth) => ({
  status: e.status,
  retesting: e.retesting,
  reason: e.reason,
  winner: e.winner?.scope ?? null,
  shadowed: e.shadowed.map((d) => d.scope),
});

describe('resolveCascade (§4, D4–D6)', () => {
  const { OK, DOWN, DEGRADED } = ToolStatus;
  const { DEFAULT_OK, LIVE_PROBLEM, PINNED, RETESTING } = CascadeReason;
  const { SESSION, USER, PROJECT, TENANT, GLOBAL } = Scope;

  it.each<[string, Layout, ToolStatus, boolean, CascadeReason, Scope | null, Scope[]]>([
    ['nothing stored → default OK', {}, OK, false, DEFAULT_OK, null, []],
    ['only OK entries → default OK', { [USER]: 'ok', [GLOBAL]: 'ok' }, OK, false, DEFAULT_OK, null, []],
    ['GLOBAL DOWN alone', { [GLOBAL]: 'down' }, DOWN, false, LIVE_PROBLEM, GLOBAL, []],
    ['§4 example: USER OK beside GLOBAL DOWN → DOWN', { [USER]: 'ok', [GLOBAL]: 'down' }, DOWN, false, LIVE_PROBLEM, GLOBAL, []],
    [
      'OK at every narrower level is neutral',
      { [SESSION]: 'ok', [USER]: 'ok', [PROJECT]: 'ok', [TENANT]: 'ok', [GLOBAL]: 'degraded' },
      DEGRADED,
      false,
      LIVE_PROBLEM,
      GLOBAL,
      [],
    ],
    [
      'narrowest live problem wins and shadows the wider',
      { [USER]: 'degraded', [GLOBAL]: 'down' },
      DEGRADED,
      false,
      LIVE_PROBLEM,
      USER,
      [GLOBAL],
    ],
    [
      'SESSION DOWN beats everything wider',
      { [SESSION]: 'down', [PROJECT]: 'degraded', [TENANT]: 'down' },
      DOWN,
      false,
      LIVE_PROBLEM,
      SESSION,
      [PROJECT, TENANT],
    ],
    [
      'DOWN with a future estimate is live',
      { [PROJECT]: 'downFuture', [GLOBAL]: 'degraded' },
      DOWN,
      false,
      LIVE_PROBLEM,
      PROJECT,
      [GLOBAL],
    ],
    [
      'RETESTING yields to a wider live problem',
      { [USER]: 'retestingDown', [GLOBAL]: 'degraded' },
      DEGRADED,
      false,
      LIVE_PROBLEM,
      GLOBAL,
      [],
    ],
    [
      'RETESTING DEGRADED (estimate = now) yields too',
      { [SESSION]: 'retestingDegraded', [TENANT]: 'down' },
      DOWN,
      false,
      LIVE_PROBLEM,
      TENANT,
      [],
    ],
    [
      'live winner shadows a wider RETESTING entry',
      { [USER]: 'down', [GLOBAL]: 'retestingDown' },
      DOWN,
      false,
      LIVE_PROBLEM,
      USER,
      [GLOBAL],
    ],
    [
      'all problems RETESTING → narrowest of those',
      { [USER]: 'retestingDegraded', [PROJECT]: 'ok', [GLOBAL]: 'retestingDown' },
      DEGRADED,
      true,
      RETESTING,
      USER,
      [GLOBAL],
    ],
    ['single RETESTING DOWN', { [TENANT]: 'retestingDown' }, DOWN, true, RETESTING, TENANT, []],
    ['pinned OK at TENANT beside GLOBAL DOWN → OK', { [TENANT]: 'pinOk', [GLOBAL]: 'down' }, OK, false, PINNED, TENANT, [GLOBAL]],
    ['pinned OK beats a wider RETESTING entry', { [PROJECT]: 'pinOk', [GLOBAL]: 'retestingDown' }, OK, false, PINNED, PROJECT, [GLOBAL]],
    ['pinned DOWN alone', { [PROJECT]: 'pinDown' }, DOWN, false, PINNED, PROJECT, []],
    ['pinned DOWN at TENANT beats a wider pinned OK', { [TENANT]: 'pinDown', [GLOBAL]: 'pinOk' }, DOWN, false, PINNED, TENANT, [GLOBAL]],
    ['expired pin is ignored (OK, neutral)', { [TENANT]: 'expiredPinOk', [GLOBAL]: 'down' }, DOWN, false, LIVE_PROBLEM, GLOBAL, []],
    ['a narrower live problem beats a wider pin', { [USER]: 'down', [TENANT]: 'pinOk' }, DOWN, false, LIVE_PROBLEM, USER, [TENANT]],
    [
      'stored DOWN pinned OK at TENANT beside GLOBAL DOWN → OK',
      { [TENANT]: 'pinOkOverDown', [GLOBAL]: 'down' },
      OK,
      false,
      PINNED,
      TENANT,
      [GLOBAL],
    ],
    ['stored RETESTING pinned OK → OK, not retesting', { [PROJECT]: 'pinOkOverRetesting' }, OK, false, PINNED, PROJECT, []],
    ['stored OK pinned DOWN → DOWN', { [PROJECT]: 'pinDownOverOk', [GLOBAL]: 'ok' }, DOWN, false, PINNED, PROJECT, []],
    [
      'a pin shadowed by a narrower live problem is listed even when its stored status is OK',
      { [SESSION]: 'degraded', [USER]: 'pinDownOverOk' },
      DEGRADED,
      false,
      LIVE_PROBLEM,
      SESSION,
      [USER],
    ],
    [
      'after the pin ends the stored status reads again',
      { [TENANT]: 'expiredPinOkOverDown', [GLOBAL]: 'degraded' },
      DOWN,
      false,
      LIVE_PROBLEM,
      TENANT,
      [GLOBAL],
    ],
    [
      'a USER pin wins past a neutral SESSION OK entry',
      { [SESSION]: 'ok', [USER]: 'pinOk', [GLOBAL]: 'down' },
      OK,
      false,
      PINNED,
      USER,
      [GLOBAL],
    ],
  ])('%s', (_label, layout, status, retesting, reason, winner, shadowed) => {
    expect(summary(resolve(docsOf(layout)))).toEqual({ status, retesting, reason, winner, shadowed });
  });

  it('winner is the very document given, and considered lists every stored cascade entry narrow → wide', () => {
    const docs = docsOf({ [GLOBAL]: 'down', [SESSION]: 'ok', [PROJECT]: 'degraded' });
    const result = resolve(docs);
    expect(result.winner).toBe(docs[2]);
    expect(result.considered.map((d) => d.scope)).toEqual([SESSION, PROJECT, GLOBAL]);
    expect(result.toolName).toBe(TOOL);
  });

  it('accepts a Map keyed by id as well as an iterable', () => {
    const docs = docsOf({ [USER]: 'ok', [TENANT]: 'pinOk', [GLOBAL]: 'down' });
    const asMap = new Map(docs.map((d) => [d.id, d]));
    expect(summary(resolve(asMap))).toEqual(summary(resolve(docs)));
    expect(resolve(asMap).reason).toBe(PINNED);
  });

  describe('absent context parts are skipped (D6)', () => {
    it.each<[string, CallContext, Layout, ToolStatus, Scope | null]>([
      ['SESSION DOWN without a sessionId', { userId: 'alice', tenantId: 't1' }, { [SESSION]: 'down' }, OK, null],
      [
        'SESSION DOWN without a sessionId falls through to GLOBAL',
        { userId: 'alice' },
        { [SESSION]: 'down', [GLOBAL]: 'degraded' },
        DEGRADED,
        GLOBAL,
      ],
      ['USER DOWN with userId null', { sessionId: 's1', userId: null }, { [USER]: 'down' }, OK, null],
      ['TENANT pin without a tenantId', { projectId: 'p1' }, { [TENANT]: 'pinOk', [GLOBAL]: 'down' }, DOWN, GLOBAL],
      [
        'empty context sees GLOBAL only',
        {},
        { [SESSION]: 'down', [USER]: 'down', [PROJECT]: 'down', [TENANT]: 'down', [GLOBAL]: 'degraded' },
        DEGRADED,
        GLOBAL,
      ],
    ])('%s', (_label, context, layout, status, winner) => {
      const result = resolve(docsOf(layout), context);
      expect(result.status).toBe(status);
      expect(result.winner?.scope ?? null).toBe(winner);
      expect(result.considered.every((d) => d.scope === GLOBAL || context[contextField(d.scope)] != null)).toBe(true);
    });
  });

  describe('documents outside the cascade are ignored', () => {
    it.each<[string, ToolHealthDocument[]]>([
      ['another tool at every level', [SESSION, USER, PROJECT, TENANT, GLOBAL].map((s) => doc(s, 'down', 'other_tool'))],
      ['another session', [doc(SESSION, 'down', TOOL, 's2')]],
      ['another user (Bob)', [doc(USER, 'pinDown', TOOL, 'bob')]],
      ['another project', [doc(PROJECT, 'down', TOOL, 'p2')]],
      ['another tenant', [doc(TENANT, 'degraded', TOOL, 't2')]],
      ['same id string at a different scope', [doc(USER, 'down', TOOL, 's1'), doc(SESSION, 'down', TOOL, 'alice')]],
    ])('%s', (_label, foreign) => {
      const result = resolve([...foreign, doc(GLOBAL, 'ok')]);
      expect(result.status).toBe(OK);
      expect(result.reason).toBe(DEFAULT_OK);
      expect(result.considered.map((d) => d.scope)).toEqual([GLOBAL]);
    });

    it('picks the cascade document among foreign ones', () => {
      const mine = doc(PROJECT, 'degraded');
      const result = resolve([doc(PROJECT, 'down', TOOL, 'p2'), mine, doc(PROJECT, 'down', 'other_tool')]);
      expect(result.winner).toBe(mine);
      expect(result.status).toBe(DEGRADED);
    });
  });

  it('does not mutate its input', () => {
    const docs = docsOf({ [USER]: 'retestingDown', [GLOBAL]: 'down' });
    const before = JSON.stringify(docs);
    resolve(docs);
    expect(JSON.stringify(docs)).toBe(before);
  });

  it('uses ids as encodeKey spells them', () => {
    const d = doc(USER, 'down');
    expect(d.id).toBe(encodeKey({ scope: USER, scopeId: 'alice', toolName: TOOL }));
  });
});

function contextField(scope: Scope): keyof CallContext {
  const fields: Record<Exclude<Scope, Scope.GLOBAL>, keyof CallContext> = {
    [Scope.SESSION]: 'sessionId',
    [Scope.USER]: 'userId',
    [Scope.PROJECT]: 'projectId',
    [Scope.TENANT]: 'tenantId',
  };
  return fields[scope as Exclude<Scope, Scope.GLOBAL>];
}

describe('isKnownDown (§9, D8)', () => {
  it.each<[string, Layout, boolean]>([
    ['default OK', {}, false],
    ['live DOWN', { [Scope.PROJECT]: 'down' }, true],
    ['DOWN with a future estimate', { [Scope.PROJECT]: 'downFuture' }, true],
    ['RETESTING DOWN', { [Scope.PROJECT]: 'retestingDown' }, false],
    ['DEGRADED', { [Scope.PROJECT]: 'degraded' }, false],
    ['pinned DOWN', { [Scope.TENANT]: 'pinDown' }, true],
    ['pinned OK over GLOBAL DOWN', { [Scope.TENANT]: 'pinOk', [Scope.GLOBAL]: 'down' }, false],
    ['stored DOWN pinned OK', { [Scope.TENANT]: 'pinOkOverDown' }, false],
    ['stored OK pinned DOWN', { [Scope.TENANT]: 'pinDownOverOk' }, true],
    ['RETESTING USER yields to live GLOBAL DOWN', { [Scope.USER]: 'retestingDown', [Scope.GLOBAL]: 'down' }, true],
  ])('%s → %s', (_label, layout, expected) => {
    expect(isKnownDown(resolve(docsOf(layout)))).toBe(expected);
  });

  it.each<[ToolStatus, boolean, boolean]>([
    [ToolStatus.DOWN, false, true],
    [ToolStatus.DOWN, true, false],
    [ToolStatus.DEGRADED, false, false],
    [ToolStatus.OK, false, false],
  ])('status %s retesting %s → %s', (status, retesting, expected) => {
    const effective: EffectiveHealth = {
      toolName: TOOL,
      status,
      retesting,
      reason: CascadeReason.LIVE_PROBLEM,
      winner: null,
      considered: [],
      shadowed: [],
    };
    expect(isKnownDown(effective)).toBe(expected);
  });
});
