import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../src/errors/to-domain-error';
import { KEYS, TestApp, createTestApp, testDatabaseUri } from './support/test-app';
import { TcpProxy } from './support/tcp-proxy';

/**
 * P136, P41: an MCP tool call in flight when the database goes silent (a black
 * hole: nothing answers, nothing closes) answers with the request deadline's UNAVAILABLE, as REST
 * and GraphQL do, instead of waiting for the driver's socket timeout behind the hijacked reply
 * (set to a minute here, so only the deadline can answer). The client gives up after GIVE_UP_MS:
 * a bound far above the deadline that keeps a broken server from hanging the test, not a timing.
 */
jest.setTimeout(120_000);
const GIVE_UP_MS = 5000;

describe('MCP and a silent database (P136, P41)', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let client: Client;

  beforeAll(async () => {
    const direct = new URL(testDatabaseUri());
    proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port) });
    t = await createTestApp({
      env: {
        MONGODB_URI: proxy.rewrite(testDatabaseUri()),
        DB_SOCKET_TIMEOUT_MS: '60000',
        BOOKKEEPING_FLUSH_MS: '0',
        DB_MONITOR_COMMANDS: 'false',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    client = new Client({ name: 'mcp-deadline-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', await t.app.getUrl()), { requestInit: { headers: { 'x-api-key': KEYS.admin } } }),
    );
  });
  afterAll(async () => {
    proxy?.heal();
    await client?.close();
    await t?.close();
    await proxy?.stop();
  });

  const lookup = () =>
    client.callTool({ name: 'tool_health_lookup', arguments: { toolName: 'jira', projectId: 'p-dl' } }, undefined, {
      timeout: GIVE_UP_MS,
    }) as Promise<CallToolResult>;
  const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  it('answers an isError UNAVAILABLE result at the deadline while the database is a black hole, then works again', async () => {
    expect((await lookup()).isError).toBeFalsy(); // through the proxy while it forwards
    proxy.blackHole();
    const during = await lookup();
    expect(during.isError).toBe(true);
    expect(text(during)).toContain(`UNAVAILABLE: ${DATABASE_UNAVAILABLE_MESSAGE.replace(/\.$/, '')}`);
    proxy.heal();
    for (let i = 0; ; i++) {
      const after = await lookup().catch(() => null);
      if (after && !after.isError) break;
      if (i > 100) throw new Error('the lookup did not work again after the database came back');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
