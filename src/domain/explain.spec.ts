import { evaluateCall } from './call-evaluation';
import { CascadeReason } from './cascade';
import { explainUnknownTool } from './explain';
import { newDocument } from './health-entry';
import { MaintenanceWindow, maintenanceFor, scheduleWindow } from './maintenance-window';
import { Scope } from './scope';
import { markAvailable, markUnavailable } from './system-writes';
import { ToolErrorCode } from './tool-error-code';
import { ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const NOW = new Date('2026-05-23T14:30:00Z');
const CREATED = new Date('2026-05-23T08:00:00Z');
const CONTEXT = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' };
const at = (hhmm: string) => new Date(`2026-05-23T${hhmm}:00Z`);

function doc(toolName: string, scope: Scope, scopeId: string | null, patch: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument({ scope, scopeId, toolName }, CREATED), ...patch };
}

function explain(toolName: string, registryKnows: boolean, docs: ToolHealthDocument[], timeZone = 'UTC') {
  return explainUnknownTool({
    toolName,
    registryKnows,
    effective: evaluateCall({ toolName, context: CONTEXT, entries: docs, now: NOW }),
    now: NOW,
    timeZone,
  });
}

const clientKey = { scope: Scope.SESSION, scopeId: 's1', toolName: 'client_file_read' };
const disconnected = markUnavailable({
  key: clientKey,
  source: 'foot-disconnect',
  now: at('14:00'),
  historyLimit: 20,
  code: ToolErrorCode.BACKEND_UNREACHABLE,
  description: 'Read a file on the client machine.',
})(null)!;
const reconnected = markAvailable({ key: clientKey, source: 'foot-connect', now: at('14:20'), historyLimit: 20 })(disconnected)!;

describe('explainUnknownTool', () => {
  it('answers NOT_REGISTERED only when neither the registry nor the store knows the name', () => {
    const result = explain('no_such_tool', false, []);
    expect(result).toEqual({
      code: ToolErrorCode.NOT_REGISTERED,
      usable: false,
      message: 'Unknown tool: no_such_tool',
      trace: { reason: CascadeReason.DEFAULT_OK, matched: null, shadowed: [], why: expect.any(Array) },
    });
  });

  it('explains a client tool after a disconnect as temporarily unreachable, never unknown', () => {
    const result = explain('client_file_read', false, [disconnected]);
    expect(result.code).toBe(ToolErrorCode.BACKEND_UNREACHABLE);
    expect(result.usable).toBe(false);
    expect(result.message).toBe(
      'Tool client_file_read is temporarily unreachable since 14:00 (the client disconnected); do not call it until it reconnects.',
    );
    expect(result.message).not.toMatch(/Unknown tool/);
    expect(result.trace.matched).toMatchObject({ scope: Scope.SESSION, scopeId: 's1', by: 'system:foot-disconnect' });
  });

  it('writes the disconnect time in the turn zone', () => {
    expect(explain('client_file_read', false, [disconnected], 'America/New_York').message).toContain('since 10:00');
  });

  it('finds the tool usable after the client reconnects and the registry knows it again', () => {
    const result = explain('client_file_read', true, [reconnected]);
    expect(result).toMatchObject({ code: null, usable: true, message: 'Tool client_file_read is available.' });
    expect(result.trace.reason).toBe(CascadeReason.DEFAULT_OK);
  });

  it('does not call a name the store knows "unknown" when the registry lost it without a DOWN entry', () => {
    const result = explain('client_file_read', false, [reconnected]);
    expect(result.code).toBe(ToolErrorCode.BACKEND_UNREACHABLE);
    expect(result.usable).toBe(false);
    expect(result.message).toBe('Tool client_file_read was registered before but is currently not reachable; do not call it now.');
  });

  it.each<[string, boolean, Partial<ToolHealthDocument>, ToolErrorCode, string]>([
    [
      'an MCP tool DOWN at PROJECT with an estimate',
      true,
      { code: ToolErrorCode.BACKEND_FAILED, expectedRecoveryAt: at('15:00') },
      ToolErrorCode.BACKEND_FAILED,
      'Tool mcp_search is currently unavailable — expected back at 15:00 (DOWN at PROJECT scope); do not call it, plan without it.',
    ],
    [
      'an MCP tool whose connection closed (registry lost it)',
      false,
      { code: ToolErrorCode.BACKEND_UNREACHABLE },
      ToolErrorCode.BACKEND_UNREACHABLE,
      'Tool mcp_search is unavailable since 14:00 (DOWN at PROJECT scope); do not call it, plan without it.',
    ],
    [
      'no stored code, registry still serves it',
      true,
      { code: null },
      ToolErrorCode.BACKEND_FAILED,
      'Tool mcp_search is unavailable since 14:00 (DOWN at PROJECT scope); do not call it, plan without it.',
    ],
    [
      'no stored code, registry lost it',
      false,
      { code: null },
      ToolErrorCode.BACKEND_UNREACHABLE,
      'Tool mcp_search is unavailable since 14:00 (DOWN at PROJECT scope); do not call it, plan without it.',
    ],
    [
      'a stored code that is no tool fault is not echoed',
      true,
      { code: ToolErrorCode.NOT_REGISTERED },
      ToolErrorCode.BACKEND_FAILED,
      'Tool mcp_search is unavailable since 14:00 (DOWN at PROJECT scope); do not call it, plan without it.',
    ],
  ])('%s', (_case, registryKnows, patch, code, message) => {
    const result = explain('mcp_search', registryKnows, [
      doc('mcp_search', Scope.PROJECT, 'p1', { status: ToolStatus.DOWN, since: at('14:00'), ...patch }),
    ]);
    expect(result).toMatchObject({ code, usable: false, message });
    expect(result.trace.matched?.scope).toBe(Scope.PROJECT);
  });

  it.each<[string, ToolErrorCode | null, ToolErrorCode, RegExp]>([
    [
      'SESSION DOWN without a code reads as a disconnect',
      null,
      ToolErrorCode.BACKEND_UNREACHABLE,
      /temporarily unreachable since 14:00 \(the client disconnected\)/,
    ],
    [
      'SESSION DOWN with BACKEND_FAILED is a failing client tool, not a disconnect',
      ToolErrorCode.BACKEND_FAILED,
      ToolErrorCode.BACKEND_FAILED,
      /unavailable since 14:00 \(DOWN at SESSION scope\)/,
    ],
  ])('%s', (_case, stored, code, message) => {
    const result = explain('client_shell', true, [
      doc('client_shell', Scope.SESSION, 's1', { status: ToolStatus.DOWN, since: at('14:00'), code: stored }),
    ]);
    expect(result.code).toBe(code);
    expect(result.message).toMatch(message);
  });

  it('names an admin pin', () => {
    const pinnedDoc = doc('jira_search', Scope.TENANT, 't1', {
      pin: { status: ToolStatus.DOWN, until: at('18:00'), reason: 'migration', by: 'admin:ops', at: at('12:00') },
    });
    const result = explain('jira_search', true, [pinnedDoc]);
    expect(result).toMatchObject({
      code: ToolErrorCode.BACKEND_FAILED,
      usable: false,
      message:
        'Tool jira_search is currently unavailable — expected back at 18:00 (pinned DOWN by an admin at TENANT scope); do not call it, plan without it.',
    });
    expect(result.trace.matched).toMatchObject({ pinned: true, by: 'admin:ops' });
  });

  it.each<[string, Partial<ToolHealthDocument>, string]>([
    [
      'DEGRADED',
      { status: ToolStatus.DEGRADED, lastFailureAt: at('14:27') },
      'Tool jira_search is available (intermittent — last failure 3 min ago, retry tolerated).',
    ],
    [
      'RETESTING',
      { status: ToolStatus.DOWN, expectedRecoveryAt: at('14:10') },
      'Tool jira_search is available (retesting: the next call tries it).',
    ],
  ])('finds a %s tool usable when the registry knows it', (_case, patch, message) => {
    const result = explain('jira_search', true, [
      doc('jira_search', Scope.GLOBAL, null, { since: at('14:00'), code: ToolErrorCode.BACKEND_FAILED, ...patch }),
    ]);
    expect(result).toEqual(expect.objectContaining({ code: null, usable: true, message }));
  });

  it('finds a RETESTING tool not usable when the registry no longer serves it', () => {
    const result = explain('jira_search', false, [
      doc('jira_search', Scope.GLOBAL, null, { status: ToolStatus.DOWN, since: at('14:00'), expectedRecoveryAt: at('14:10') }),
    ]);
    expect(result).toMatchObject({ code: ToolErrorCode.BACKEND_UNREACHABLE, usable: false });
  });
});

describe('explainUnknownTool with maintenance windows (issue 16, P103)', () => {
  const HOUR = 3_600_000;
  const LOOKAHEAD = 24 * HOUR;
  function scheduled(toolName: string, scope: Scope, scopeId: string | null, from: Date, until: Date): MaintenanceWindow {
    return scheduleWindow({ scope, scopeId, toolName, from, until, reason: 'Jira upgrade' }, 'w1', 'admin:ops', CREATED);
  }
  function explainWith(
    toolName: string,
    registryKnows: boolean,
    docs: ToolHealthDocument[],
    windows: MaintenanceWindow[],
    { now = NOW, timeZone = 'UTC' }: { now?: Date; timeZone?: string } = {},
  ) {
    const view = maintenanceFor(windows, toolName, CONTEXT, now, LOOKAHEAD);
    const effective = evaluateCall({ toolName, context: CONTEXT, entries: docs, now, maintenance: view });
    return explainUnknownTool({ toolName, registryKnows, effective, now, timeZone });
  }

  it('names a window in force, with the annotation wording and the window as the matched entry', () => {
    const result = explainWith('jira_search', true, [], [scheduled('jira_search', Scope.GLOBAL, null, at('14:00'), at('16:00'))]);
    expect(result).toEqual({
      code: ToolErrorCode.BACKEND_FAILED,
      usable: false,
      message:
        'Tool jira_search is under maintenance — expected back at 16:00 (scheduled maintenance at GLOBAL scope); do not call it, plan without it.',
      trace: {
        reason: CascadeReason.MAINTENANCE,
        matched: expect.objectContaining({ scope: Scope.GLOBAL, by: 'admin:ops', until: at('16:00') }),
        shadowed: [],
        why: expect.any(Array),
      },
    });
  });

  it('writes the end with its date when it is not today in the turn zone', () => {
    const window = scheduled('jira_search', Scope.TENANT, 't1', at('14:00'), new Date('2026-05-24T01:00:00Z'));
    expect(explainWith('jira_search', true, [], [window], { timeZone: 'Europe/Berlin' }).message).toContain(
      'under maintenance — expected back at 2026-05-24 03:00 (scheduled maintenance at TENANT scope)',
    );
  });

  it('gives an end in the repeated DST hour its UTC offset', () => {
    // 2026-10-25 in Berlin: 03:00 CEST falls back to 02:00 CET at 01:00 UTC; 01:30 UTC is the second 02:30.
    const now = new Date('2026-10-25T00:10:00Z');
    const window = scheduled('jira_search', Scope.GLOBAL, null, new Date('2026-10-25T00:00:00Z'), new Date('2026-10-25T01:30:00Z'));
    expect(explainWith('jira_search', true, [], [window], { now, timeZone: 'Europe/Berlin' }).message).toContain(
      'expected back at 02:30 (UTC+1)',
    );
  });

  it('reads a window at SESSION scope over a disconnect as maintenance, not as a disconnect', () => {
    const window = scheduled('client_file_read', Scope.SESSION, 's1', at('14:10'), at('15:00'));
    const result = explainWith('client_file_read', false, [disconnected], [window]);
    expect(result).toMatchObject({
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      usable: false,
      // Changed with D20: the disconnect beneath has no known end, so neither has "back at".
      message:
        'Tool client_file_read is under maintenance — end unknown (scheduled maintenance at SESSION scope); do not call it, plan without it.',
    });
    expect(result.trace.reason).toBe(CascadeReason.MAINTENANCE);
  });

  it('leaves the disconnect in front of a wider window in force, as the cascade does (P75)', () => {
    const window = scheduled('client_file_read', Scope.TENANT, 't1', at('14:10'), at('15:00'));
    expect(explainWith('client_file_read', false, [disconnected], [window]).message).toBe(
      'Tool client_file_read is temporarily unreachable since 14:00 (the client disconnected); do not call it until it reconnects.',
    );
  });

  it.each<[string, boolean, ToolHealthDocument[], ToolErrorCode | null, string]>([
    ['an available tool', true, [], null, 'Tool jira_search is available (maintenance planned 18:00–20:00).'],
    [
      'a DOWN tool',
      true,
      [doc('jira_search', Scope.PROJECT, 'p1', { status: ToolStatus.DOWN, since: at('14:00'), expectedRecoveryAt: at('15:00') })],
      ToolErrorCode.BACKEND_FAILED,
      'Tool jira_search is currently unavailable — expected back at 15:00; maintenance planned 18:00–20:00 (DOWN at PROJECT scope); do not call it, plan without it.',
    ],
    [
      'a RETESTING tool',
      true,
      [doc('jira_search', Scope.GLOBAL, null, { status: ToolStatus.DOWN, since: at('14:00'), expectedRecoveryAt: at('14:10') })],
      null,
      'Tool jira_search is available (retesting: the next call tries it; maintenance planned 18:00–20:00).',
    ],
    [
      'a name nothing is stored for and no source serves',
      false,
      [],
      ToolErrorCode.BACKEND_UNREACHABLE,
      'Tool jira_search is currently not reachable; do not call it now. Maintenance is planned 18:00–20:00.',
    ],
    [
      'a name the registry lost',
      false,
      [doc('jira_search', Scope.GLOBAL, null)],
      ToolErrorCode.BACKEND_UNREACHABLE,
      'Tool jira_search was registered before but is currently not reachable; do not call it now. Maintenance is planned 18:00–20:00.',
    ],
  ])('names a window coming within the lookahead for %s', (_case, registryKnows, docs, code, message) => {
    const window = scheduled('jira_search', Scope.GLOBAL, null, at('18:00'), at('20:00'));
    expect(explainWith('jira_search', registryKnows, docs, [window])).toMatchObject({ code, message });
  });

  it('names a coming window after a disconnect, in the turn zone', () => {
    const window = scheduled('client_file_read', Scope.TENANT, 't1', at('18:00'), at('20:00'));
    expect(explainWith('client_file_read', false, [disconnected], [window], { timeZone: 'Europe/Berlin' }).message).toBe(
      'Tool client_file_read is temporarily unreachable since 16:00 (the client disconnected); do not call it until it reconnects. Maintenance is planned 20:00–22:00.',
    );
  });

  it('does not name a window beyond the lookahead: an unknown name stays unknown', () => {
    const window = scheduled('jira_search', Scope.GLOBAL, null, new Date('2026-05-25T18:00:00Z'), new Date('2026-05-25T20:00:00Z'));
    expect(explainWith('jira_search', false, [], [window])).toMatchObject({
      code: ToolErrorCode.NOT_REGISTERED,
      message: 'Unknown tool: jira_search',
    });
  });
});
