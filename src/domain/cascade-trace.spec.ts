import { CascadeReason, resolveCascade } from './cascade';
import { effectiveSince, explainCascade } from './cascade-trace';
import { newDocument } from './health-entry';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const NOW = new Date('2026-05-23T14:30:00Z');
const CREATED = new Date('2026-05-23T08:00:00Z');
const SINCE = new Date('2026-05-23T14:00:00Z');
const CONTEXT = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' };
const TOOL = 'jira_search';

function doc(scope: Scope, scopeId: string | null, patch: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument({ scope, scopeId, toolName: TOOL }, CREATED), ...patch };
}

const down = (patch: Partial<ToolHealthDocument> = {}): Partial<ToolHealthDocument> => ({
  status: ToolStatus.DOWN,
  since: SINCE,
  code: ToolErrorCode.BACKEND_FAILED,
  ...patch,
});

const pin = (status: ToolStatus.OK | ToolStatus.DOWN): Pin => ({
  status,
  until: new Date('2026-05-23T18:00:00Z'),
  reason: 'tenant runs its own Jira',
  by: 'admin:ops',
  at: new Date('2026-05-23T12:00:00Z'),
});

const trace = (docs: ToolHealthDocument[]) => explainCascade(resolveCascade(TOOL, CONTEXT, docs, NOW));

describe('explainCascade', () => {
  it('has no match for the default OK', () => {
    expect(trace([])).toEqual({ reason: CascadeReason.DEFAULT_OK, matched: null, shadowed: [], why: [] });
  });

  it('ignores a neutral OK entry (a cooldown holder) and has no match', () => {
    expect(trace([doc(Scope.USER, 'alice')])).toEqual({ reason: CascadeReason.DEFAULT_OK, matched: null, shadowed: [], why: [] });
  });

  it('names the narrowest live problem, who diagnosed it, and the wider problems it hides', () => {
    const user = doc(
      Scope.USER,
      'alice',
      down({
        expectedRecoveryAt: new Date('2026-05-23T15:00:00Z'),
        lastDiagnosis: { classification: null, code: ToolErrorCode.BACKEND_FAILED, note: null, by: 'agrajag-7', at: SINCE },
      }),
    );
    const global = doc(Scope.GLOBAL, null, down());
    const degradedTenant = doc(Scope.TENANT, 't1', { status: ToolStatus.DEGRADED, since: SINCE });
    expect(trace([global, user, degradedTenant])).toEqual({
      reason: CascadeReason.LIVE_PROBLEM,
      matched: {
        scope: Scope.USER,
        scopeId: 'alice',
        by: 'agrajag-7',
        since: SINCE,
        until: new Date('2026-05-23T15:00:00Z'),
        pinned: false,
        code: ToolErrorCode.BACKEND_FAILED,
      },
      shadowed: [
        { scope: Scope.TENANT, scopeId: 't1', status: ToolStatus.DEGRADED },
        { scope: Scope.GLOBAL, scopeId: null, status: ToolStatus.DOWN },
      ],
      why: [],
    });
  });

  it('reports by null when the entry has no diagnosis', () => {
    expect(trace([doc(Scope.PROJECT, 'p1', down())]).matched?.by).toBeNull();
  });

  it('reports a RETESTING winner with its passed estimate', () => {
    const past = new Date('2026-05-23T14:10:00Z');
    const t = trace([doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: past }))]);
    expect(t.reason).toBe(CascadeReason.RETESTING);
    expect(t.matched).toMatchObject({ scope: Scope.PROJECT, until: past, pinned: false });
  });

  it('reports a pin overriding the stored status by its author, start and end', () => {
    const t = trace([doc(Scope.TENANT, 't1', { pin: pin(ToolStatus.DOWN) }), doc(Scope.GLOBAL, null, down())]);
    expect(t).toEqual({
      reason: CascadeReason.PINNED,
      matched: {
        scope: Scope.TENANT,
        scopeId: 't1',
        by: 'admin:ops',
        since: new Date('2026-05-23T12:00:00Z'),
        until: new Date('2026-05-23T18:00:00Z'),
        pinned: true,
        code: null,
      },
      shadowed: [{ scope: Scope.GLOBAL, scopeId: null, status: ToolStatus.DOWN }],
      why: [],
    });
  });

  it('keeps the stored since when the pin agrees with the stored status', () => {
    const early = new Date('2026-05-23T09:00:00Z');
    const effective = resolveCascade(TOOL, CONTEXT, [doc(Scope.TENANT, 't1', down({ since: early, pin: pin(ToolStatus.DOWN) }))], NOW);
    expect(effectiveSince(effective)).toEqual(early);
    expect(explainCascade(effective).matched?.since).toEqual(early);
  });

  it('has no since for the default OK', () => {
    expect(effectiveSince(resolveCascade(TOOL, CONTEXT, [], NOW))).toBeNull();
  });
});
