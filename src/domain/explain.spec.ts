import { CascadeReason, resolveCascade } from './cascade';
import { explainUnknownTool } from './explain';
import { newDocument } from './health-entry';
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
  return explainUnknownTool({ toolName, registryKnows, effective: resolveCascade(toolName, CONTEXT, docs, NOW), now: NOW, timeZone });
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
      trace: { reason: CascadeReason.DEFAULT_OK, matched: null, shadowed: [] },
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
