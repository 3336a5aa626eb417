import { CascadeReason, windowAsEntry } from '../domain/cascade';
import { ToolHealthClassification } from '../domain/classification';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { newDocument } from '../domain/health-entry';
import { scheduleWindow } from '../domain/maintenance-window';
import { Scope } from '../domain/scope';
import { ToolHealthDocument } from '../domain/tool-health-document';
import { ToolStatus } from '../domain/tool-status';
import { toMaintenanceWindowView } from '../features/maintenance/maintenance-window.view';
import { describeEffective, describeEntry, describeError, describeHistory, withoutCitations } from './mcp-text';

const at = (minute: number) => new Date(Date.UTC(2026, 4, 23, 14, minute));

function entry(history: [ToolHealthClassification | null, ToolStatus][]): ToolHealthDocument {
  const doc = newDocument({ scope: Scope.PROJECT, scopeId: 'p-1', toolName: 'jira' }, at(0), null);
  return {
    ...doc,
    status: history.at(-1)?.[1] ?? ToolStatus.OK,
    history: history.map(([classification, status], i) => ({
      classification,
      status,
      code: null,
      note: `n${i}`,
      by: 'agrajag-1',
      at: at(i),
      recoveryAt: null,
    })),
  };
}

describe('MCP result texts (P72)', () => {
  it('lists history newest first and says how many older items it left out', () => {
    const doc = entry(
      Array.from({ length: 12 }, (_, i) => [ToolHealthClassification.INTERMITTENT, i % 2 ? ToolStatus.OK : ToolStatus.DEGRADED]),
    );
    const text = describeHistory(doc);
    expect(text).toMatch(
      /^History, newest first \(2 older not shown; all are in structuredContent\): 2026-05-23T14:11:00.000Z INTERMITTENT → OK by agrajag-1: "n11"; 2026-05-23T14:10/,
    );
    expect(text).not.toContain('"n1"');
  });

  it('names a clear (no classification) as cleared and an empty history as such', () => {
    expect(describeHistory(entry([[null, ToolStatus.OK]]))).toContain('cleared → OK');
    expect(describeHistory(entry([]))).toBe('No history.');
  });

  it('describes a DOWN entry with its recovery estimate and a stored OK entry without one', () => {
    const down = { ...entry([[ToolHealthClassification.TECHNICALLY_BROKEN, ToolStatus.DOWN]]), expectedRecoveryAt: at(30) };
    expect(describeEntry(down)).toMatch(
      /^jira at PROJECT p-1: DOWN since .*, expected recovery 2026-05-23T14:30:00.000Z\. No diagnosis yet\./,
    );
    expect(describeEntry(entry([]))).toMatch(
      /^jira at PROJECT p-1: OK since 2026-05-23T14:00:00.000Z\. No diagnosis yet\. No history\. No cooldowns\.$/,
    );
  });

  it('says why the cascade decided and what the winner hides', () => {
    const winner = entry([[ToolHealthClassification.INTERMITTENT, ToolStatus.DEGRADED]]);
    const text = describeEffective({
      toolName: 'jira',
      status: ToolStatus.DEGRADED,
      retesting: false,
      reason: CascadeReason.LIVE_PROBLEM,
      winner,
      considered: [],
      shadowed: [{ scope: Scope.GLOBAL, scopeId: null, status: ToolStatus.DOWN, retesting: false, pinned: false }],
      trace: { reason: CascadeReason.LIVE_PROBLEM, matched: null, shadowed: [], why: [] },
      backAt: null,
      blocked: false,
      maintenance: null,
      signals: {
        failingOften: null,
        slow: { recentCalls: 40, recentP95Ms: 9000, usualP95Ms: 1000 },
        text: 'slow right now — about 9 s per call, usually about 1 s',
      },
    });
    // Issue 39: the signals close the text, as evidence beside the status.
    expect(text).toMatch(/ Recent calls: slow right now — about 9 s per call, usually about 1 s\.$/);
    expect(text).toMatch(
      /^jira for this caller: DEGRADED — the narrowest live problem decides \(LIVE_PROBLEM\)\. Decided by: jira at PROJECT p-1: DEGRADED/,
    );
    expect(text).toMatch(/Wider entries it hides: GLOBAL DOWN\. /);
  });

  it('names a deciding maintenance window as the window, not as a stored diagnosis', () => {
    const now = new Date('2026-05-23T14:30:00Z');
    const window = scheduleWindow(
      {
        scope: Scope.TENANT,
        scopeId: 'acme',
        toolName: 'jira',
        from: new Date('2026-05-23T14:00:00Z'),
        until: new Date('2026-05-23T16:00:00Z'),
        reason: 'Jira upgrade',
      },
      'w-1',
      'admin:ops',
      new Date('2026-05-23T13:00:00Z'),
    );
    const text = describeEffective({
      toolName: 'jira',
      status: ToolStatus.DOWN,
      retesting: false,
      reason: CascadeReason.MAINTENANCE,
      winner: windowAsEntry(window, now),
      considered: [],
      shadowed: [{ scope: Scope.GLOBAL, scopeId: null, status: ToolStatus.DEGRADED, retesting: false, pinned: false }],
      trace: { reason: CascadeReason.MAINTENANCE, matched: null, shadowed: [], why: [] },
      backAt: new Date('2026-05-23T16:00:00Z'),
      blocked: true,
      maintenance: { inForce: toMaintenanceWindowView(window, now), upcoming: null },
      signals: null,
    });
    expect(text).toBe(
      'jira for this caller: DOWN — a scheduled maintenance window is in force (MAINTENANCE). ' +
        'Decided by: the maintenance window w-1 at TENANT acme, from 2026-05-23T14:00:00.000Z, scheduled by admin:ops. ' +
        'Wider entries it hides: GLOBAL DEGRADED. Under maintenance ("Jira upgrade"), expected back at 2026-05-23T16:00:00.000Z.',
    );
  });

  it('turns an error into its code, its message and what to do', () => {
    expect(describeError(DomainError.invalid('arguments.scope', 'must be one of SESSION, USER.'))).toBe(
      'INVALID_ARGUMENT: arguments.scope: must be one of SESSION, USER. Fix the argument and call again.',
    );
    expect(describeError(new DomainError(DomainErrorCode.NOT_FOUND, 'gone'))).toBe('NOT_FOUND: gone.');
  });
});

describe('withoutCitations (P136)', () => {
  it.each([
    ['needs one of the roles a, admin (D17)', 'needs one of the roles a, admin'],
    ['allows one instance per database (D3). Retrying', 'allows one instance per database. Retrying'],
    ['walks the cascade (§4, §9): SESSION first', 'walks the cascade: SESSION first'],
    ['pinned (D4b; P55) until', 'pinned until'],
  ])('strips the rule ids from %j', (text, expected) => {
    expect(withoutCitations(text)).toBe(expected);
  });

  it('keeps parentheses that are not rule ids', () => {
    const text = 'another instance holds the lease (holder h:1, expires 2026-01-01) (P40 says why) (D) (x-api-key)';
    expect(withoutCitations(text)).toBe(text);
  });

  it('is applied to isError texts, whose domain messages REST shares', () => {
    expect(describeError(new DomainError(DomainErrorCode.CONFLICT, 'the list is full (D7)'))).not.toMatch(/\(D7\)/);
  });
});
