import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * P136 with a client no one here wrote: the Python `mcp` SDK (pinned in
 * scripts/install-python-mcp.sh, installed into .cache on first use) against /mcp, per role (what
 * each key lists and may call) and for the refusals (no key, unknown key, forged Host and Origin,
 * a tool outside the key's roles): each must reach the Python caller as the JSON-RPC error the
 * service sent (P136), not the SDK's stand-in "Server returned an error response" (−32603).
 */
jest.setTimeout(600_000); // the first run creates the venv (pip)

const ROOT = join(__dirname, '..');
const WRITERS = ['tool_health_set_unavailable', 'tool_health_set_available', 'tool_health_set_cooldown', 'tool_health_clear'];
const READERS = ['tool_health_get', 'tool_health_lookup'];
const CITATION = /\((?:[DP]\d+|§\d+)/;

interface Scenario {
  name: string;
  headers: Record<string, string>;
  steps: ({ op: 'list' } | { op: 'call'; tool: string; arguments: Record<string, unknown> })[];
}
// The Python side's JSON, asserted field by field.
type Outcomes = Record<string, { initialize: any; steps: any[] }>;

function runPython(python: string, url: string, scenarios: Scenario[]): Promise<Outcomes> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [join(ROOT, 'test/support/mcp_python_client.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`python exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as Outcomes);
    });
    child.stdin.end(JSON.stringify(scenarios.map((s) => ({ ...s, url }))));
  });
}

describe('MCP with the Python SDK (P136)', () => {
  let t: TestApp;
  let url: string;
  let python: string;
  let outcomes: Outcomes;

  const lookup = { op: 'call' as const, tool: 'tool_health_lookup', arguments: { toolName: 'jira', projectId: 'p-py' } };
  const setDown = {
    op: 'call' as const,
    tool: 'tool_health_set_unavailable',
    arguments: { toolName: 'jira', scope: 'PROJECT', scopeId: 'p-py', classification: 'TECHNICALLY_BROKEN', note: 'from python' },
  };
  const clear = { op: 'call' as const, tool: 'tool_health_clear', arguments: { toolName: 'jira', scope: 'PROJECT', scopeId: 'p-py' } };

  beforeAll(async () => {
    python = (await promisify(execFile)('bash', [join(ROOT, 'scripts/install-python-mcp.sh')], { cwd: ROOT })).stdout.trim();
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = new URL('/mcp', await t.app.getUrl()).toString();
    await t.reset();
    outcomes = await runPython(python, url, [
      { name: 'writer', headers: { 'x-api-key': KEYS.writer }, steps: [{ op: 'list' }, setDown, lookup] },
      { name: 'dispatcher', headers: { 'x-api-key': KEYS.dispatcher }, steps: [{ op: 'list' }, lookup, setDown] },
      { name: 'audit', headers: { 'x-api-key': KEYS.audit }, steps: [{ op: 'list' }, lookup, clear] },
      { name: 'admin', headers: { 'x-api-key': KEYS.admin }, steps: [{ op: 'list' }, clear, lookup] },
      { name: 'no-key', headers: {}, steps: [] },
      { name: 'unknown-key', headers: { 'x-api-key': 'not-a-key' }, steps: [] },
      { name: 'forged-host', headers: { 'x-api-key': KEYS.admin, host: 'attacker.example' }, steps: [] },
      { name: 'forged-origin', headers: { 'x-api-key': KEYS.admin, origin: 'http://attacker.example' }, steps: [] },
    ]);
  });
  afterAll(() => t?.close());

  it('lists to each role exactly the tools it may call, tool_health_clear as the only destructive one', () => {
    expect(outcomes.writer.initialize).toEqual({ server: 'tool-availability-service' });
    expect(outcomes.writer.steps[0]).toEqual({ tools: [...WRITERS, ...READERS], destructive: ['tool_health_clear'] });
    expect(outcomes.dispatcher.steps[0]).toEqual({ tools: [], destructive: [] });
    expect(outcomes.audit.steps[0]).toEqual({ tools: READERS, destructive: [] });
    expect(outcomes.admin.steps[0]).toEqual({ tools: [...WRITERS, ...READERS], destructive: ['tool_health_clear'] });
  });

  it('lets the writer record a verdict and read it back, and the admin clear it', () => {
    expect(outcomes.writer.steps[1]).toMatchObject({ isError: false, text: expect.stringContaining('jira is now DOWN at PROJECT') });
    expect(outcomes.writer.steps[2]).toMatchObject({ isError: false, structured: { status: 'DOWN' } });
    expect(outcomes.audit.steps[1]).toMatchObject({ isError: false, structured: { status: 'DOWN' } });
    expect(outcomes.admin.steps[1]).toMatchObject({ isError: false });
    expect(outcomes.admin.steps[2]).toMatchObject({ isError: false, structured: { status: 'OK' } });
  });

  it('raises a call outside the key’s roles as -32602 naming the roles, with one message and no rule ids', () => {
    for (const [who, step] of [
      ['dispatcher', outcomes.dispatcher.steps[1]],
      ['dispatcher', outcomes.dispatcher.steps[2]],
      ['audit', outcomes.audit.steps[2]],
    ]) {
      expect(step.error).toMatchObject({ code: -32602, data: { code: 'FORBIDDEN' } });
      expect(step.error.message).toMatch(new RegExp(`^FORBIDDEN: key "${who}" may not call tool_health_\\w+; it needs one of the roles `));
      expect(step.error.message).not.toMatch(/MCP error/);
      expect(step.error.message).not.toMatch(CITATION);
    }
  });

  it.each([
    ['no-key', -32001, 'an API key is required (header x-api-key)'],
    ['unknown-key', -32001, 'unknown API key (header x-api-key)'],
    ['forged-host', -32000, 'Host "attacker.example" is not an allowed host of this MCP server (MCP_ALLOWED_HOSTS)'],
    ['forged-origin', -32000, 'Origin "http://attacker.example" is not an allowed origin of this MCP server (MCP_ALLOWED_HOSTS)'],
  ])('raises %s at initialize as the server’s JSON-RPC error (%i), not a stand-in', (name, code, message) => {
    expect(outcomes[name].initialize).toEqual({ error: { code, message, data: expect.any(Object) } });
  });
});
