import fc from 'fast-check';
import { annotateTool } from './annotation';
import { evaluateCall, whyOf } from './call-evaluation';
import { isKnownDown } from './cascade';
import { ToolHealthClassification as C } from './classification';
import { formatClock } from './clock-format';
import { explainUnknownTool } from './explain';
import { FailureReason, checkFailure } from './failure-check';
import { cascadeKeyIds, cascadeKeys, encodeKey } from './health-key';
import { newDocument } from './health-entry';
import { MaintenanceWindow, appliesTo, isInForce, maintenanceFor } from './maintenance-window';
import { Scope, scopeRank } from './scope';
import { CallContext, CooldownEntry, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';
import { aMaintenanceWindow } from '../../test/factories/documents';

/**
 * Issue 24 / D20: over generated states — entries at every scope with every status and estimate,
 * pins at several scopes, overlapping and adjacent windows, cooldowns of every class with and
 * without users — every reader agrees with the one evaluation and with each other (status, text,
 * back-at, retryAt, reach), and D20's invariants hold: no write under maintenance, nothing beyond a
 * pin, back-at and retryAt never earlier than a blocker's end (and exactly the first free instant).
 */
const TOOL = 'jira';
const NOW = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const at = (min: number) => new Date(NOW.getTime() + min * MIN);
const SIG = 'http-502';
const FULL: CallContext = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 'acme' };
const CLASSES = [C.TECHNICALLY_BROKEN, C.USER_SPECIFIC_TECHNICAL, C.USER_PERMISSION, C.USER_INPUT, C.INTERMITTENT];

/** Instants on a coarse grid, so ends coincide (adjacent windows, a pin ending as a window starts). */
const instant = fc.integer({ min: -6, max: 12 }).map((k) => at(k * 30));
const maybeInstant = fc.option(instant, { nil: null });

const cooldownArb: fc.Arbitrary<CooldownEntry> = fc.record({
  errorSignature: fc.constantFrom(SIG, 'other'),
  userId: fc.constantFrom(null, 'alice', 'bob'),
  nextSpawnAllowedAt: instant,
  hits: fc.constant(0),
  lastClassification: fc.constantFrom(...CLASSES),
  lastTriggeredAt: fc.constant(null),
  windowMs: fc.constant(30 * MIN),
});

function docArb(scope: Scope, scopeId: string | null): fc.Arbitrary<ToolHealthDocument | null> {
  return fc.option(
    fc
      .record({
        status: fc.constantFrom(ToolStatus.OK, ToolStatus.DEGRADED, ToolStatus.DOWN),
        expectedRecoveryAt: maybeInstant,
        pin: fc.option(fc.record({ status: fc.constantFrom(ToolStatus.OK as const, ToolStatus.DOWN as const), until: instant }), {
          nil: null,
        }),
        cooldowns: fc.array(cooldownArb, { maxLength: 3 }),
        lastFailureAt: maybeInstant,
      })
      .map((r) => ({
        ...newDocument({ scope, scopeId, toolName: TOOL }, at(-240)),
        version: 1,
        status: r.status,
        expectedRecoveryAt: r.status === ToolStatus.OK ? null : r.expectedRecoveryAt,
        code: r.status === ToolStatus.OK ? null : ToolErrorCode.BACKEND_FAILED,
        pin: r.pin && { ...r.pin, reason: 'r', by: 'admin:a', at: at(-240) },
        // Unique (signature, userId) per document, as applyCooldown keeps them.
        cooldowns: r.cooldowns.filter(
          (e, i, all) => all.findIndex((o) => o.errorSignature === e.errorSignature && o.userId === e.userId) === i,
        ),
        lastFailureAt: r.lastFailureAt,
      })),
    { nil: null },
  );
}

const windowArb = (i: number): fc.Arbitrary<MaintenanceWindow> =>
  fc
    .record({
      key: fc.constantFrom(...cascadeKeys(TOOL, FULL)),
      // Mostly around now, so windows in force overlap, adjoin and follow each other.
      from: fc.integer({ min: -4, max: 4 }),
      length: fc.integer({ min: 1, max: 6 }),
    })
    .map(({ key, from, length }) =>
      aMaintenanceWindow({
        ...key,
        id: `w${i}`,
        from: at(from * 30),
        until: at((from + length) * 30),
        reason: 'upgrade',
        by: 'admin:a',
        createdAt: at(-240),
        updatedAt: at(-240),
      }),
    );

const stateArb = fc.record({
  context: fc.record({
    sessionId: fc.constantFrom(undefined, 's1'),
    userId: fc.constantFrom(undefined, 'alice'),
    projectId: fc.constantFrom(undefined, 'p1'),
    tenantId: fc.constantFrom(undefined, 'acme'),
  }),
  docs: fc.tuple(
    docArb(Scope.SESSION, 's1'),
    docArb(Scope.USER, 'alice'),
    docArb(Scope.PROJECT, 'p1'),
    docArb(Scope.TENANT, 'acme'),
    docArb(Scope.GLOBAL, null),
  ),
  windows: fc.tuple(windowArb(0), windowArb(1), windowArb(2), windowArb(3)).chain((ws) => fc.subarray(ws)),
  classification: fc.option(fc.constantFrom(...CLASSES), { nil: null }),
});

type State = { context: CallContext; entries: ToolHealthDocument[]; windows: MaintenanceWindow[] };

type Generated = typeof stateArb extends fc.Arbitrary<infer T> ? T : never;

function stateOf(s: Generated): State {
  const context = Object.fromEntries(Object.entries(s.context).filter(([, v]) => v !== undefined)) as CallContext;
  return { context, entries: s.docs.filter((d): d is ToolHealthDocument => d !== null), windows: s.windows };
}

const evaluateAt = (st: State, now: Date) =>
  evaluateCall({
    toolName: TOOL,
    context: st.context,
    entries: st.entries,
    now,
    maintenance: maintenanceFor(st.windows, TOOL, st.context, now, 48 * 60 * MIN),
  });

const failAt = (st: State, now: Date, classification: C | null = null) =>
  checkFailure({
    toolName: TOOL,
    context: st.context,
    code: ToolErrorCode.BACKEND_FAILED,
    errorSignature: SIG,
    classification,
    entries: new Map(st.entries.map((d) => [d.id, d])),
    now,
    maintenance: maintenanceFor(st.windows, TOOL, st.context, now, 48 * 60 * MIN),
  });

const RUNS = { numRuns: 600 };

describe('one evaluation of a call: readers agree (D20, property)', () => {
  it('annotation, explain and the failure decision read the status, trace and back-at of the evaluation', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        const st = stateOf(s);
        const ev = evaluateAt(st, NOW);
        const annotated = annotateTool({ name: TOOL, description: 'd' }, ev, NOW, 'UTC');
        const explained = explainUnknownTool({ toolName: TOOL, registryKnows: true, effective: ev, now: NOW, timeZone: 'UTC' });
        const decision = failAt(st, NOW);
        expect(annotated.status).toBe(ev.status);
        expect(decision.effective.status).toBe(ev.status);
        expect(explained.trace).toEqual(annotated.reason);
        expect(annotated.reason.why).toEqual(whyOf(ev));
        expect(explained.usable).toBe(!isKnownDown(ev));
        expect(annotated.doNotCall).toBe(isKnownDown(ev));
        // The text names the evaluation's back-at, or says it is unknown.
        if (annotated.doNotCall) {
          if (ev.backAt.at) expect(annotated.suffix).toContain(`expected back at ${formatClock(ev.backAt.at, NOW, 'UTC')}`);
          else expect(annotated.suffix).not.toContain('expected back at');
          expect(ev.backAt.blocked).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('an evaluation given the cascade ids its caller read by (P346) is the evaluation without them', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        const st = stateOf(s);
        const input = {
          toolName: TOOL,
          context: st.context,
          entries: new Map(st.entries.map((d) => [d.id, d])),
          now: NOW,
          maintenance: maintenanceFor(st.windows, TOOL, st.context, NOW, 48 * 60 * MIN),
        };
        expect(evaluateCall({ ...input, cascade: cascadeKeyIds(TOOL, st.context) })).toEqual(evaluateCall(input));
      }),
      RUNS,
    );
  });

  it('a tool with no stored entry (P347) evaluates against no entries as against entries of other tools', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        const st = stateOf(s);
        const others = st.entries.map((d) => {
          const key = { scope: d.scope, scopeId: d.scopeId, toolName: 'confluence' };
          return { ...d, ...key, id: encodeKey(key) };
        });
        const input = {
          toolName: TOOL,
          context: st.context,
          now: NOW,
          maintenance: maintenanceFor(st.windows, TOOL, st.context, NOW, 48 * 60 * MIN),
        };
        const expected = evaluateCall({ ...input, entries: new Map(others.map((d) => [d.id, d])) });
        expect(evaluateCall({ ...input, entries: new Map() })).toEqual(expected);
        expect(evaluateCall({ ...input, entries: new Map(), cascade: cascadeKeyIds(TOOL, st.context) })).toEqual(expected);
      }),
      RUNS,
    );
  });

  it('no write under maintenance, nothing beyond a pin', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        const st = stateOf(s);
        const ev = evaluateAt(st, NOW);
        const d = failAt(st, NOW, s.classification);
        const reachIds = new Set(ev.reachEntries.map((e) => e.id));
        const reachScopes = new Set(ev.reach.map((k) => k.scope));
        const bound = ev.reach.length === 0 ? scopeRank(Scope.GLOBAL) : scopeRank(ev.reach[ev.reach.length - 1].scope);
        // The reach, judged independently: the cascade up to and including the narrowest pin in force.
        const keys = cascadeKeys(TOOL, st.context);
        const pinnedAt = keys.findIndex((k) =>
          st.entries.some((e) => e.scope === k.scope && e.pin !== null && e.pin.until.getTime() > NOW.getTime()),
        );
        expect(ev.reach).toEqual(pinnedAt < 0 ? keys : keys.slice(0, pinnedAt + 1));
        // Independent of the evaluation's own list: a window of this call's cascade in force now, not wider than the pin.
        const inForceInReach = st.windows.some((w) => appliesTo(w, TOOL, st.context) && isInForce(w, NOW) && scopeRank(w.scope) <= bound);
        expect(ev.underMaintenance).toBe(inForceInReach);
        if (ev.underMaintenance) {
          expect(d).toMatchObject({
            spawn: false,
            reason: FailureReason.UNDER_MAINTENANCE,
            hit: null,
            cooldownWrite: null,
            failureMarks: [],
            evidenceScopes: [],
          });
        }
        if (d.hit) expect(reachIds.has(d.hit.docId)).toBe(true);
        for (const id of d.failureMarks) expect(reachIds.has(id)).toBe(true);
        if (d.cooldownWrite) expect(reachScopes.has(d.cooldownWrite.key.scope)).toBe(true);
        for (const scope of d.evidenceScopes) expect(reachScopes.has(scope)).toBe(true);
        for (const w of ev.windowsInReach) expect(scopeRank(w.scope)).toBeLessThanOrEqual(bound);
        // A checker's one-user class never goes anywhere but the caller's USER document.
        if (
          d.cooldownWrite &&
          (s.classification === C.USER_SPECIFIC_TECHNICAL || s.classification === C.USER_PERMISSION || s.classification === C.USER_INPUT)
        ) {
          expect(d.cooldownWrite).toMatchObject({ key: { scope: Scope.USER, scopeId: st.context.userId }, userId: st.context.userId });
        }
      }),
      RUNS,
    );
  });

  it('back-at is the first instant nothing in reach blocks: never earlier than a blocker, free exactly then', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        const st = stateOf(s);
        const ev = evaluateAt(st, NOW);
        if (!ev.backAt.blocked) {
          expect(ev.underMaintenance || isKnownDown(ev)).toBe(false);
          return;
        }
        for (const w of ev.windowsInReach) if (ev.backAt.at) expect(ev.backAt.at.getTime()).toBeGreaterThanOrEqual(w.until.getTime());
        if (ev.backAt.at === null) return;
        const back = ev.backAt.at;
        expect(back.getTime()).toBeGreaterThan(NOW.getTime());
        expect(evaluateAt(st, back).backAt.blocked).toBe(false);
        expect(evaluateAt(st, new Date(back.getTime() - 1)).backAt.blocked).toBe(true);
      }),
      RUNS,
    );
  });

  it('retryAt is when the same report becomes eligible, never before any binding cooldown or back-at', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        const st = stateOf(s);
        const ev = evaluateAt(st, NOW);
        const d = failAt(st, NOW);
        if (d.spawn) {
          expect(d.retryAt).toBeNull();
          expect(ev.underMaintenance || isKnownDown(ev)).toBe(false);
          return;
        }
        if (d.retryAt === null) return;
        if (ev.backAt.at) expect(d.retryAt.getTime()).toBeGreaterThanOrEqual(ev.backAt.at.getTime());
        for (const doc of ev.reachEntries) {
          for (const e of doc.cooldowns) {
            const binds =
              e.errorSignature === SIG &&
              (e.userId === null
                ? ![C.USER_PERMISSION, C.USER_INPUT].includes(e.lastClassification)
                : e.userId === (st.context.userId ?? null));
            if (binds && e.nextSpawnAllowedAt.getTime() > NOW.getTime())
              expect(d.retryAt.getTime()).toBeGreaterThanOrEqual(e.nextSpawnAllowedAt.getTime());
          }
        }
        expect(failAt(st, d.retryAt).reason).toBe(FailureReason.ELIGIBLE);
        expect(failAt(st, new Date(d.retryAt.getTime() - 1)).spawn).toBe(false);
      }),
      RUNS,
    );
  });
});
