import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';
import { rawRequest } from './support/raw-http';

/**
 * P136: the edge of /mcp as MCP clients and the conformance suite see it — the
 * 401 as JSON-RPC with WWW-Authenticate, −32700 for a body that is not JSON, −32602 with a
 * sentence (not a validator dump, not a doubled "MCP error" prefix, no rule ids) for ill-typed
 * params, batches refused with nothing run, Host and Origin checked against the allow-list, and
 * tool_health_clear advertised as destructive. Raw requests where the SDK client cannot send the
 * mistake; the SDK's own client where it can.
 */
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const CITATION = /\((?:[DP]\d+|§\d+)/;
const SET_DOWN = (toolName: string) => ({
  name: 'tool_health_set_unavailable',
  arguments: { toolName, scope: 'GLOBAL', classification: 'TECHNICALLY_BROKEN', note: 'batch' },
});

describe('MCP edge (P136)', () => {
  let t: TestApp;
  let url: URL;
  const open: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = new URL('/mcp', await t.app.getUrl());
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    rawRequest(url, { body, headers: { ...HEADERS, 'x-api-key': KEYS.admin, ...headers } });
  const message = (method: string, params?: unknown, id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const countEntries = () => t.connection.db!.collection('tool_health').countDocuments();

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'mcp-edge-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': key } } }));
    open.push(client);
    return client;
  }

  it.each([
    ['no key', {}, 'an API key is required (header x-api-key)'],
    ['an unknown key', { 'x-api-key': 'not-a-key' }, 'unknown API key (header x-api-key)'],
  ])('answers %s with HTTP 401, a WWW-Authenticate header and a JSON-RPC error body', async (_case, headers, text) => {
    const res = await rawRequest(url, { body: message('tools/list', {}), headers: { ...HEADERS, ...headers } });
    expect(res.status).toBe(401);
    // issue 36: the header to send, in the status line every client shows, and in the challenge
    expect(res.statusMessage).toBe('Unauthorized: send an API key in the x-api-key header');
    expect(res.headers['www-authenticate']).toBe('ApiKey realm="tool-availability", header="x-api-key"');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: text, data: { code: 'UNAUTHENTICATED' } }, id: null });
  });

  it('the TypeScript SDK client surfaces the 401 with its JSON-RPC message', async () => {
    const client = new Client({ name: 'mcp-edge-e2e', version: '1.0.0' });
    const error = await client
      .connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': 'wrong' } } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
    expect((error as Error).message).toContain('{"jsonrpc":"2.0","error":{"code":-32001,"message":"unknown API key (header x-api-key)"');
  });

  it.each([
    ['not JSON', '{"jsonrpc":"2.0","id":1,', /^Parse error: body: not valid JSON/],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}}'),
      ]),
      /^Parse error: body: not valid UTF-8 \(byte 61\)/,
    ],
    [
      'a lone surrogate',
      message('tools/list', { x: '\\ud800' }).replace('\\\\ud800', '\\ud800'),
      /^Parse error: params\.x: holds a lone UTF-16 surrogate/,
    ],
    ['a duplicate key', '{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}', /^Parse error: id: duplicate key/],
  ])('answers a body that is %s with -32700 Parse error (HTTP 400), not a REST error body', async (_case, body, text) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(text) } });
  });

  it.each([
    [
      'params.name is a number',
      { name: 5, arguments: {} },
      'Invalid params: params.name is a number; send the name of the tool to call, a string',
    ],
    ['params.name is missing', { arguments: {} }, 'Invalid params: params.name is missing; send the name of the tool to call, a string'],
    [
      'arguments is an array',
      { name: 'tool_health_get', arguments: [1] },
      "Invalid params: params.arguments is an array; send the tool's arguments as an object of name → value",
    ],
    [
      'arguments is a string',
      { name: 'tool_health_get', arguments: 'x' },
      "Invalid params: params.arguments is a string; send the tool's arguments as an object of name → value",
    ],
    ['params is an array', ['tool_health_get'], 'Invalid params: params is an array; send an object'],
  ])('answers tools/call where %s with -32602 and a sentence, not -32603 with a validator dump', async (_case, params, text) => {
    const res = await post(message('tools/call', params, 7));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: text } });
  });

  it('the TypeScript SDK client gets -32602 with one code prefix and no rule ids', async () => {
    const client = await connect(KEYS.dispatcher);
    const ill = await client.callTool({ name: 'tool_health_get', arguments: 'x' as never }).catch((e: unknown) => e);
    expect(ill).toBeInstanceOf(McpError);
    expect((ill as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((ill as McpError).message).toBe(
      "MCP error -32602: Invalid params: params.arguments is a string; send the tool's arguments as an object of name → value",
    );
    const forbidden = await client
      .callTool({ name: 'tool_health_clear', arguments: { toolName: 'x', scope: 'GLOBAL' } })
      .catch((e: unknown) => e);
    expect((forbidden as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((forbidden as McpError).message).toMatch(
      /^MCP error -32602: FORBIDDEN: key "dispatcher" may not call tool_health_clear; it needs one of the roles /,
    );
    expect((forbidden as McpError).message).not.toMatch(/MCP error -32602: MCP error/);
    expect((forbidden as McpError).message).not.toMatch(CITATION);
    const unknown = await client.callTool({ name: 'tool_health_nope', arguments: {} }).catch((e: unknown) => e);
    expect((unknown as McpError).message).toMatch(/^MCP error -32602: no tool named tool_health_nope/);
  });

  it.each([
    ['a body over BODY_LIMIT_BYTES', () => post(Buffer.alloc(4 * 1_048_576 + 10, 0x20)), 413, 'PAYLOAD_TOO_LARGE', /too large/],
    ['a body that is not JSON', () => post('tools/list', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE', /json/i],
    [
      'JSON in another charset',
      () => post(message('tools/list', {}), { 'content-type': 'application/json; charset=latin1' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      /UTF-8/,
    ],
  ])(
    'answers %s with its HTTP status and a JSON-RPC error body (-32600), as every refusal of /mcp',
    async (_case, send, status, code, text) => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(text), data: { code } },
      });
    },
  );

  it('refuses a JSON-RPC batch whole with -32600 (HTTP 400) and runs none of its writes', async () => {
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: SET_DOWN(`batched-${id}`) }));
    const res = await post(JSON.stringify(batch));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/^Invalid Request: JSON-RPC batches are not accepted/) },
    });
    expect(await countEntries()).toBe(0);
    // The same write sent alone runs (the refusal is the batch, not the write).
    const single = await post(message('tools/call', SET_DOWN('single')));
    expect(single.json.result.isError).toBeFalsy();
    expect(await countEntries()).toBe(1);
  });

  it.each([
    ['a forged Host', { host: 'attacker.example' }, /^Host "attacker\.example" is not an allowed host/],
    ['a forged Host with the right port', { host: `rebind.example:${'PORT'}` }, /^Host "rebind\.example:\d+" is not an allowed host/],
    ['a foreign Origin', { origin: 'http://attacker.example' }, /^Origin "http:\/\/attacker\.example" is not an allowed origin/],
    ['an opaque Origin', { origin: 'null' }, /^Origin "null" is not an allowed origin/],
  ])('refuses %s with a valid key: HTTP 403, JSON-RPC -32000, nothing run (DNS rebinding)', async (_case, headers, text) => {
    const forged = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', url.port)]));
    const res = await post(message('tools/call', SET_DOWN('rebound')), forged);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(text) } });
    expect(await countEntries()).toBe(0);
  });

  it('accepts the loopback names and an Origin of this host', async () => {
    const allowed: Record<string, string>[] = [
      { host: `localhost:${url.port}` },
      { host: `127.0.0.1:${url.port}`, origin: `http://localhost:${url.port}` },
    ];
    for (const headers of allowed) {
      const res = await post(message('tools/list', {}), headers);
      expect([headers, res.status]).toEqual([headers, 200]);
    }
  });

  it('advertises tool_health_clear as destructive and no other tool', async () => {
    const { tools } = await (await connect(KEYS.admin)).listTools();
    const destructive = tools.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name);
    expect(destructive).toEqual(['tool_health_clear']);
    for (const tool of tools) expect([tool.name, CITATION.test(tool.description ?? '')]).toEqual([tool.name, false]);
  });
});
