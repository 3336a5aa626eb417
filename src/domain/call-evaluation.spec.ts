import { evaluateCall, reachAt, whyOf } from './call-evaluation';
import { CascadeReason } from './cascade';
import { ToolHealthClassification as C } from './classification';
import { spawnBlockedUntil } from './failure-check';
import { newDocument } from './health-entry';
import { MaintenanceWindow, maintenanceFor } from './maintenance-window';
import { Scope } from './scope';
import { CooldownEntry, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';
import { aMaintenanceWindow } from '../../test/factories/documents';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);
const CONTEXT = { userId: 'alice', projectId: 'p1', tenantId: 'acme' };

const doc = (scope: Scope, scopeId: string | null, overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument => ({
  ...newDocument({ scope, scopeId, toolName: 'jira' }, at(-H)),
  version: 1,
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
const window = (scope: Scope, scopeId: string | null, from: Date, until: Date, id = `${scope}-${from.toISOString()}`): MaintenanceWindow =>
  aMaintenanceWindow({
    id,
    scope,
    scopeId,
    toolName: 'jira',
    from,
    until,
    reason: 'upgrade',
    by: 'admin:a',
    createdAt: at(-H),
    updatedAt: at(-H),
  });
const byId = (...docs: ToolHealthDocument[]) => new Map(docs.map((d) => [d.id, d]));
const evaluate = (docs: ToolHealthDocument[], windows: MaintenanceWindow[] = [], context: object = CONTEXT, now = T0) =>
  evaluateCall({ toolName: 'jira', context, entries: docs, now, maintenance: maintenanceFor(windows, 'jira', context, now, 24 * H) });

const user = doc(Scope.USER, 'alice');
const project = doc(Scope.PROJECT, 'p1');
const acmePinned = doc(Scope.TENANT, 'acme', { pin: pin(ToolStatus.OK, at(H)) });
const globalDown = doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN, expectedRecoveryAt: at(2 * H) });

describe('reach of a call (D18, D20)', () => {
  const ids = (docs: ToolHealthDocument[]) => docs.map((d) => d.id);
  it('is the whole cascade without a pin', () => {
    const reach = reachAt('jira', CONTEXT, byId(user, project, globalDown), T0);
    expect(ids(reach.entries)).toEqual(ids([user, project, globalDown]));
    expect(reach.keys.map((k) => k.scope)).toEqual([Scope.USER, Scope.PROJECT, Scope.TENANT, Scope.GLOBAL]);
  });
  it('stops at the narrowest pin in force, which it includes', () => {
    const ev = evaluate([user, acmePinned, globalDown]);
    expect(ids(ev.reachEntries)).toEqual(ids([user, acmePinned]));
    expect(ev.reach.map((k) => k.scope)).toEqual([Scope.USER, Scope.PROJECT, Scope.TENANT]);
    expect(ev.boundary?.id).toBe(acmePinned.id);
    expect(whyOf(ev)[0]).toMatch(/bounded by the OK pin at TENANT acme .*GLOBAL beyond it neither govern nor count/);
  });
  it('an ended pin no longer stops it', () => {
    expect(ids(evaluate([acmePinned, globalDown], [], CONTEXT, at(H)).reachEntries)).toEqual(ids([acmePinned, globalDown]));
  });
});

describe('maintenance in reach (D20)', () => {
  it('governs failures even when a narrower problem decides the status', () => {
    const degraded = doc(Scope.PROJECT, 'p1', { status: ToolStatus.DEGRADED });
    const ev = evaluate([degraded], [window(Scope.GLOBAL, null, at(-MIN), at(H))]);
    expect(ev).toMatchObject({ status: ToolStatus.DEGRADED, reason: CascadeReason.LIVE_PROBLEM, underMaintenance: true });
    expect(ev.governing?.id).toBe(degraded.id);
  });
  it('a window beyond the pin does not count', () => {
    const ev = evaluate([acmePinned], [window(Scope.GLOBAL, null, at(-MIN), at(H))]);
    expect(ev).toMatchObject({ status: ToolStatus.OK, underMaintenance: false, backAt: { blocked: false, at: null } });
  });
  it('a window at the pin’s own scope counts (the reach includes the pin)', () => {
    const ev = evaluate([acmePinned], [window(Scope.TENANT, 'acme', at(-MIN), at(H))]);
    expect(ev).toMatchObject({ status: ToolStatus.DOWN, reason: CascadeReason.MAINTENANCE, underMaintenance: true, governing: null });
  });
});

describe('back at (D20)', () => {
  it('overlapping windows: the later end', () => {
    const ev = evaluate([], [window(Scope.GLOBAL, null, at(-MIN), at(H)), window(Scope.GLOBAL, null, at(-MIN), at(2 * H), 'w2')]);
    expect(ev.backAt).toEqual({ blocked: true, at: at(2 * H) });
  });
  it('adjacent windows chain; a gap does not', () => {
    const first = window(Scope.GLOBAL, null, at(-MIN), at(H));
    expect(evaluate([], [first, window(Scope.PROJECT, 'p1', at(H), at(3 * H))]).backAt.at).toEqual(at(3 * H));
    expect(evaluate([], [first, window(Scope.PROJECT, 'p1', at(H + 1), at(3 * H))]).backAt.at).toEqual(at(H));
  });
  it('a narrower window inside a wider one: the wider end', () => {
    const ev = evaluate([], [window(Scope.GLOBAL, null, at(-MIN), at(4 * H)), window(Scope.PROJECT, 'p1', at(-MIN), at(H), 'w2')]);
    expect(ev.backAt.at).toEqual(at(4 * H));
  });
  it('a DOWN due back in 10 min inside a 2 h window: the window end', () => {
    const down = doc(Scope.PROJECT, 'p1', { status: ToolStatus.DOWN, expectedRecoveryAt: at(10 * MIN) });
    const ev = evaluate([down], [window(Scope.GLOBAL, null, at(-MIN), at(2 * H))]);
    expect(ev).toMatchObject({ status: ToolStatus.DOWN, reason: CascadeReason.LIVE_PROBLEM, backAt: { blocked: true, at: at(2 * H) } });
  });
  it('a window over an outage without estimate: unknown', () => {
    const down = doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN });
    expect(evaluate([down], [window(Scope.USER, 'alice', at(-MIN), at(H))]).backAt).toEqual({ blocked: true, at: null });
  });
  it('a narrower DOWN due back, then a wider DOWN without estimate: unknown', () => {
    const mine = doc(Scope.USER, 'alice', { status: ToolStatus.DOWN, expectedRecoveryAt: at(10 * MIN) });
    expect(evaluate([mine, doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN })]).backAt).toEqual({ blocked: true, at: null });
  });
  it('a DOWN pin, then the stored DOWN beneath', () => {
    const pinned = doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN, expectedRecoveryAt: at(2 * H), pin: pin(ToolStatus.DOWN, at(H)) });
    expect(evaluate([pinned]).backAt.at).toEqual(at(2 * H));
  });
  it('the end of a TENANT DOWN pin reveals the wider outage: the chain follows it', () => {
    const ev = evaluate([doc(Scope.TENANT, 'acme', { pin: pin(ToolStatus.DOWN, at(H)) }), globalDown]);
    expect(ev.backAt.at).toEqual(at(2 * H));
  });
  it('nothing blocks: not blocked', () => {
    expect(evaluate([project]).backAt).toEqual({ blocked: false, at: null });
  });
});

describe('spawnBlockedUntil (P51 with D20)', () => {
  const ask = (docs: ToolHealthDocument[], windows: MaintenanceWindow[] = [], context = CONTEXT) =>
    spawnBlockedUntil(
      {
        toolName: 'jira',
        context,
        code: ToolErrorCode.BACKEND_FAILED,
        errorSignature: 'http-502',
        entries: byId(...docs),
        now: T0,
        maintenance: maintenanceFor(windows, 'jira', context, T0, 24 * H),
      },
      context.userId ?? null,
    ).at;

  it('null when nothing blocks', () => {
    expect(ask([project])).toBeNull();
  });
  it('the latest of overlapping cooldowns', () => {
    expect(
      ask([
        doc(Scope.PROJECT, 'p1', { cooldowns: [entry({ nextSpawnAllowedAt: at(30_000) })] }),
        doc(Scope.GLOBAL, null, { cooldowns: [entry({ nextSpawnAllowedAt: at(2 * H) })] }),
      ]),
    ).toEqual(at(2 * H));
  });
  it('a cooldown followed by an outage that outlasts it', () => {
    const down = doc(Scope.GLOBAL, null, {
      status: ToolStatus.DOWN,
      expectedRecoveryAt: at(3 * H),
      cooldowns: [entry({ nextSpawnAllowedAt: at(MIN) })],
    });
    expect(ask([down])).toEqual(at(3 * H));
  });
  it('a 2 h cooldown under a 30 min window: the cooldown end', () => {
    const cooled = doc(Scope.GLOBAL, null, { cooldowns: [entry({ nextSpawnAllowedAt: at(2 * H) })] });
    expect(ask([cooled], [window(Scope.GLOBAL, null, at(-MIN), at(30 * MIN))])).toEqual(at(2 * H));
  });
  it('an OK pin hides the wider outage and its cooldowns: nothing blocks', () => {
    const cooled = doc(Scope.GLOBAL, null, {
      status: ToolStatus.DOWN,
      expectedRecoveryAt: at(2 * H),
      cooldowns: [entry({ nextSpawnAllowedAt: at(H) })],
    });
    expect(ask([acmePinned, cooled])).toBeNull();
  });
  it('an outage without an estimate: unknown (null)', () => {
    expect(ask([doc(Scope.GLOBAL, null, { status: ToolStatus.DOWN })])).toBeNull();
  });
  it("another user's entry does not block", () => {
    expect(ask([doc(Scope.PROJECT, 'p1', { cooldowns: [entry({ userId: 'bob', lastClassification: C.USER_PERMISSION })] })])).toBeNull();
  });
});

describe('the reach line, built once per context', () => {
  it('names every level of the context, for each tool of a turn and after the context changed', () => {
    const context: { userId?: string; projectId?: string; tenantId?: string; sessionId?: string } = { userId: 'alice', tenantId: 'acme' };
    const first = evaluateCall({ toolName: 'jira', context, entries: [], now: T0 });
    const second = evaluateCall({ toolName: 'confluence', context, entries: [], now: T0 });
    expect(whyOf(first)[0]).toBe('reach: USER alice → TENANT acme → GLOBAL');
    expect(whyOf(second)[0]).toBe(whyOf(first)[0]);
    context.userId = 'bob';
    expect(whyOf(evaluateCall({ toolName: 'jira', context, entries: [], now: T0 }))[0]).toBe('reach: USER bob → TENANT acme → GLOBAL');
    context.projectId = 'p1';
    expect(whyOf(evaluateCall({ toolName: 'jira', context, entries: [], now: T0 }))[0]).toBe(
      'reach: USER bob → PROJECT p1 → TENANT acme → GLOBAL',
    );
  });
});
