import { execFile, spawn } from 'node:child_process';
import { IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * P152: the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
 * scripts/install-mcp-conformance.sh with the Node 22 it needs, installed into .cache on first use)
 * against /mcp, for the server scenarios that apply to this server. The suite sends no
 * credentials, so a proxy on 127.0.0.1 adds the admin key and passes everything else — Host and
 * Origin included, which the DNS-rebinding scenario forges — through untouched. The other
 * scenarios exercise the suite's reference server (its fixture tools `test_*`, and logging,
 * completions, resources and prompts, which this server does not offer): P152 lists them.
 */
jest.setTimeout(600_000); // the first run installs the suite (npm)

const ROOT = join(__dirname, '..');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/** Forwards every request to `target` with the admin key added; nothing else changes. */
function keyAddingProxy(target: number): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: { ...req.headers, 'x-api-key': KEYS.admin } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

function runScenario(node: string, suite: string, url: string, scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [suite, 'server', '--url', url, '--scenario', scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the official MCP conformance suite against /mcp (P152)', () => {
  let t: TestApp;
  let proxy: Server;
  let url: string;
  let node: string;
  let suite: string;

  beforeAll(async () => {
    [node, suite] = (await promisify(execFile)('bash', [join(ROOT, 'scripts/install-mcp-conformance.sh')], { cwd: ROOT })).stdout
      .trim()
      .split('\n');
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    proxy = keyAddingProxy((t.app.getHttpServer().address() as AddressInfo).port);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    url = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await t?.close();
  });

  it.each(SCENARIOS)('%s: every check passes', async (scenario) => {
    const { code, output } = await runScenario(node, suite, url, scenario);
    const result = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
    expect({ scenario, code, result: result?.[0] ?? output }).toEqual({ scenario, code: 0, result: expect.stringMatching(/ 0 failed$/) });
    expect(Number(result![2])).toBeGreaterThan(0); // the scenario ran checks
    expect(result![1]).toBe(result![2]);
  });
});
