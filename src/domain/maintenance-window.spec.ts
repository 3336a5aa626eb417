import { evaluateCall } from './call-evaluation';
import { annotationSuffix } from './annotation';
import { CascadeReason, isKnownDown, resolveCascade, withMaintenance } from './cascade';
import { DomainError, DomainErrorCode } from './domain-error';
import { FailureReason, checkFailure } from './failure-check';
import { newDocument } from './health-entry';
import { encodeKey } from './health-key';
import {
  MaintenancePhase,
  MaintenanceWindow,
  NO_MAINTENANCE,
  cancelWindow,
  changeWindow,
  dueEvents,
  maintenanceFor,
  phaseOf,
  scheduleWindow,
} from './maintenance-window';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { CallContext, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const NOW = new Date('2026-05-23T14:30:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (ms: number) => new Date(NOW.getTime() + ms);
const TOOL = 'jira_search';
const CTX: CallContext = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' };
const LOOKAHEAD = 24 * HOUR;

function window(over: Partial<MaintenanceWindow> = {}): MaintenanceWindow {
  return {
    ...scheduleWindow(
      { scope: Scope.GLOBAL, toolName: TOOL, from: at(-HOUR), until: at(HOUR), reason: 'Jira upgrade' },
      'w1',
      'admin:ops',
      at(-2 * HOUR),
    ),
    ...over,
  };
}

function doc(scope: Scope, scopeId: string | null, over: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument({ scope, scopeId, toolName: TOOL }, at(-3 * HOUR)), ...over };
}

function entries(...docs: ToolHealthDocument[]): Map<string, ToolHealthDocument> {
  return new Map(docs.map((d) => [encodeKey(d), d]));
}

describe('phaseOf / maintenanceFor', () => {
  it('reads upcoming, in force, ended and cancelled by the instant', () => {
    const w = window({ from: at(HOUR), until: at(2 * HOUR) });
    expect(phaseOf(w, NOW)).toBe(MaintenancePhase.UPCOMING);
    expect(phaseOf(w, at(HOUR))).toBe(MaintenancePhase.IN_FORCE);
    expect(phaseOf(w, at(2 * HOUR))).toBe(MaintenancePhase.ENDED);
    expect(phaseOf({ ...w, cancelledAt: NOW }, at(HOUR))).toBe(MaintenancePhase.CANCELLED);
  });

  it('finds only windows whose key is in the call cascade, upcoming within the lookahead only', () => {
    const global = window({ id: 'g' });
    const otherProject = window({ id: 'o', scope: Scope.PROJECT, scopeId: 'p2' });
    const otherTool = window({ id: 't', toolName: 'confluence_read' });
    expect(maintenanceFor([otherProject, otherTool], TOOL, CTX, NOW, LOOKAHEAD)).toBe(NO_MAINTENANCE);
    expect(maintenanceFor([global, otherProject], TOOL, CTX, NOW, LOOKAHEAD).inForce?.id).toBe('g');
    const soon = window({ id: 's', from: at(2 * HOUR), until: at(3 * HOUR) });
    const later = window({ id: 'l', from: at(30 * HOUR), until: at(31 * HOUR) });
    expect(maintenanceFor([later, soon], TOOL, CTX, NOW, LOOKAHEAD)).toMatchObject({ inForce: null, upcoming: soon });
    expect(maintenanceFor([later], TOOL, CTX, NOW, LOOKAHEAD)).toBe(NO_MAINTENANCE);
    expect(maintenanceFor([later], TOOL, CTX, NOW, 31 * HOUR).upcoming?.id).toBe('l');
  });

  it('prefers the narrowest window in force, of equals the one ending last', () => {
    const global = window({ id: 'g', until: at(5 * HOUR) });
    const tenant = window({ id: 't', scope: Scope.TENANT, scopeId: 't1', until: at(2 * HOUR) });
    const tenantLonger = window({ id: 't2', scope: Scope.TENANT, scopeId: 't1', until: at(3 * HOUR) });
    expect(maintenanceFor([global, tenant, tenantLonger], TOOL, CTX, NOW, LOOKAHEAD).inForce?.id).toBe('t2');
  });
});

describe('withMaintenance', () => {
  const view = (w: MaintenanceWindow) => maintenanceFor([w], TOOL, CTX, NOW, LOOKAHEAD);

  it('reads DOWN until the window ends, reason MAINTENANCE, over an OK cascade', () => {
    const effective = withMaintenance(resolveCascade(TOOL, CTX, entries(doc(Scope.USER, 'alice')), NOW), view(window()), NOW);
    expect(effective.status).toBe(ToolStatus.DOWN);
    expect(effective.reason).toBe(CascadeReason.MAINTENANCE);
    expect(effective.winner?.expectedRecoveryAt).toEqual(at(HOUR));
    expect(effective.winner?.lastDiagnosis?.by).toBe('admin:ops');
    expect(isKnownDown(effective)).toBe(true);
  });

  it('beats stored entries at its scope and wider, shadowing their problems', () => {
    const degradedGlobal = doc(Scope.GLOBAL, null, { status: ToolStatus.DEGRADED });
    const tenantWindow = window({ scope: Scope.TENANT, scopeId: 't1' });
    const effective = withMaintenance(resolveCascade(TOOL, CTX, entries(degradedGlobal), NOW), view(tenantWindow), NOW);
    expect(effective.reason).toBe(CascadeReason.MAINTENANCE);
    expect(effective.shadowed.map((d) => d.scope)).toEqual([Scope.GLOBAL]);
  });

  it('yields to a narrower pin or live problem (D4, D4b), which keeps the window as information', () => {
    const pinned = doc(Scope.TENANT, 't1', {
      pin: { status: ToolStatus.OK, until: at(5 * HOUR), reason: 'own Jira', by: 'admin:x', at: NOW },
    });
    const effective = withMaintenance(resolveCascade(TOOL, CTX, entries(pinned), NOW), view(window()), NOW);
    expect(effective.reason).toBe(CascadeReason.PINNED);
    expect(effective.status).toBe(ToolStatus.OK);
    expect(effective.maintenance?.inForce?.id).toBe('w1');
  });

  it('hands back to the stored evidence once the window has ended', () => {
    const down = doc(Scope.PROJECT, 'p1', { status: ToolStatus.DOWN, expectedRecoveryAt: at(4 * HOUR) });
    const w = window();
    const during = withMaintenance(resolveCascade(TOOL, CTX, entries(down), NOW), maintenanceFor([w], TOOL, CTX, NOW, LOOKAHEAD), NOW);
    expect(during.reason).toBe(CascadeReason.LIVE_PROBLEM); // PROJECT is narrower than the GLOBAL window
    const after = at(2 * HOUR);
    const ended = withMaintenance(resolveCascade(TOOL, CTX, entries(down), after), maintenanceFor([w], TOOL, CTX, after, LOOKAHEAD), after);
    expect(ended).toEqual(resolveCascade(TOOL, CTX, entries(down), after));
  });
});

describe('annotation with windows', () => {
  const suffix = (w: MaintenanceWindow, now = NOW, docs: ToolHealthDocument[] = [], zone = 'UTC') =>
    annotationSuffix(
      evaluateCall({
        toolName: TOOL,
        context: CTX,
        entries: entries(...docs),
        now,
        maintenance: maintenanceFor([w], TOOL, CTX, now, LOOKAHEAD),
      }),
      now,
      zone,
    );

  it('says "under maintenance — expected back at HH:MM", with the date when not today', () => {
    expect(suffix(window())).toBe('under maintenance — expected back at 15:30');
    expect(suffix(window({ until: at(20 * HOUR) }))).toBe('under maintenance — expected back at 2026-05-24 10:30');
  });

  it('announces a coming window, after the stored suffix when there is one', () => {
    const coming = window({ from: at(2 * HOUR), until: at(4 * HOUR) });
    expect(suffix(coming)).toBe('maintenance planned 16:30–18:30');
    const degraded = doc(Scope.GLOBAL, null, { status: ToolStatus.DEGRADED, lastFailureAt: at(-3 * MIN) });
    expect(suffix(coming, NOW, [degraded])).toBe('intermittent — last failure 3 min ago, retry tolerated; maintenance planned 16:30–18:30');
  });

  it('renders a window ending in the repeated DST hour with its offset (Europe/Berlin, 2026-10-25)', () => {
    // 01:30 UTC is 02:30 CET, the second 02:30 of the night; now is 02:10 CEST, the same local day.
    const now = new Date('2026-10-25T00:10:00Z');
    const w = window({ from: new Date('2026-10-24T23:00:00Z'), until: new Date('2026-10-25T01:30:00Z') });
    expect(suffix(w, now, [], 'Europe/Berlin')).toBe('under maintenance — expected back at 02:30 (UTC+1)');
    const earlier = window({ from: new Date('2026-10-24T23:00:00Z'), until: new Date('2026-10-25T00:30:00Z') });
    expect(suffix(earlier, now, [], 'Europe/Berlin')).toBe('under maintenance — expected back at 02:30 (UTC+2)');
    const after = window({ from: new Date('2026-10-24T23:00:00Z'), until: new Date('2026-10-25T02:30:00Z') });
    expect(suffix(after, now, [], 'Europe/Berlin')).toBe('under maintenance — expected back at 03:30');
  });
});

describe('failure check under maintenance', () => {
  const report = (over: Partial<Parameters<typeof checkFailure>[0]> = {}) =>
    checkFailure({
      toolName: TOOL,
      context: CTX,
      code: ToolErrorCode.BACKEND_FAILED,
      errorSignature: 'http-502',
      entries: new Map(),
      now: NOW,
      maintenance: maintenanceFor([window()], TOOL, CTX, NOW, LOOKAHEAD),
      ...over,
    });

  it('never spawns, reason UNDER_MAINTENANCE, retry at the window end, nothing marked', () => {
    const decision = report({ entries: entries(doc(Scope.GLOBAL, null)) });
    expect(decision).toMatchObject({
      spawn: false,
      reason: FailureReason.UNDER_MAINTENANCE,
      reflectError: true,
      retryAfterSeconds: 3600,
      hit: null,
      cooldownWrite: null,
      failureMarks: [],
    });
    expect(decision.retryAt).toEqual(at(HOUR));
  });

  it('wins over a checker classification, but not over "not a tool fault"', () => {
    expect(report({ classification: 'USER_PERMISSION' as never }).reason).toBe(FailureReason.UNDER_MAINTENANCE);
    expect(report({ code: ToolErrorCode.NOT_REGISTERED }).reason).toBe(FailureReason.NOT_A_TOOL_FAULT);
  });

  it('is ELIGIBLE again when the window is not in force', () => {
    expect(report({ maintenance: NO_MAINTENANCE }).reason).toBe(FailureReason.ELIGIBLE);
    expect(report({ maintenance: undefined }).reason).toBe(FailureReason.ELIGIBLE);
  });
});

describe('schedule / change / cancel', () => {
  const schedule = (over: Record<string, unknown> = {}) =>
    scheduleWindow(
      { scope: Scope.GLOBAL, toolName: TOOL, from: at(HOUR), until: at(2 * HOUR), reason: 'upgrade', ...over } as never,
      'w',
      'admin:ops',
      NOW,
    );
  const invalid = (fn: () => unknown, field: string) => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).field).toBe(field);
      return;
    }
    throw new Error('expected a DomainError');
  };

  it('refuses bad keys and times with the field named', () => {
    invalid(() => schedule({ scopeId: 'x' }), 'scopeId');
    invalid(() => schedule({ until: at(HOUR) }), 'until');
    invalid(() => schedule({ from: at(-3 * HOUR), until: at(-HOUR) }), 'until');
    invalid(() => schedule({ until: at(40 * 24 * HOUR) }), 'until');
    invalid(() => schedule({ reason: ' ' }), 'reason');
  });

  it('lets a coming window move, an in-force one only end differently, an ended one not at all', () => {
    const w = schedule();
    expect(changeWindow(w, { from: at(2 * HOUR), until: at(3 * HOUR) }, 'admin:b', NOW)).toMatchObject({
      from: at(2 * HOUR),
      version: 2,
      by: 'admin:b',
    });
    const running = at(90 * MIN);
    expect(changeWindow(w, { until: at(5 * HOUR) }, 'admin:b', running).until).toEqual(at(5 * HOUR));
    expect(() => changeWindow(w, { from: at(80 * MIN) }, 'admin:b', running)).toThrow(
      expect.objectContaining({ code: DomainErrorCode.CONFLICT }),
    );
    expect(() => changeWindow(w, { until: at(3 * HOUR) }, 'admin:b', at(2 * HOUR))).toThrow(
      expect.objectContaining({ code: DomainErrorCode.CONFLICT }),
    );
    expect(() => cancelWindow(cancelWindow(w, 'admin:b', NOW), 'admin:b', NOW)).toThrow(
      expect.objectContaining({ code: DomainErrorCode.CONFLICT }),
    );
  });

  it('owes a start event once begun, an end event once over, none for one cancelled before its start', () => {
    const w = schedule();
    expect(dueEvents(w, NOW)).toEqual({ warn: false, start: false, end: false });
    expect(dueEvents(w, at(90 * MIN))).toEqual({ warn: false, start: true, end: false });
    expect(dueEvents(w, at(3 * HOUR))).toEqual({ warn: false, start: true, end: true });
    expect(dueEvents({ ...w, startedEventAt: at(HOUR) }, at(3 * HOUR))).toEqual({ warn: false, start: false, end: true });
    expect(dueEvents(cancelWindow(w, 'admin:b', NOW), at(3 * HOUR))).toEqual({ warn: false, start: false, end: false });
    expect(dueEvents(cancelWindow(w, 'admin:b', at(90 * MIN)), at(100 * MIN))).toEqual({ warn: false, start: true, end: true });
  });

  it('P192: owes its warning within the lead time before its start, once, and never after it began or was cancelled', () => {
    const w = schedule();
    const lead = 15 * MIN;
    expect(dueEvents(w, at(44 * MIN), lead).warn).toBe(false);
    expect(dueEvents(w, at(45 * MIN), lead).warn).toBe(true);
    expect(dueEvents({ ...w, warnedEventAt: at(45 * MIN) }, at(50 * MIN), lead).warn).toBe(false);
    expect(dueEvents(w, at(HOUR), lead).warn).toBe(false);
    expect(dueEvents(cancelWindow(w, 'admin:b', NOW), at(50 * MIN), lead).warn).toBe(false);
    expect(dueEvents(w, at(50 * MIN)).warn).toBe(false); // no lead time configured
  });
});
