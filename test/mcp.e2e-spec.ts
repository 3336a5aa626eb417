import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CascadeService } from '../src/features/tool-health/cascade.service';
import { AGRAJAG_TOOLS } from '../src/features/diagnoses/agrajag-tools';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 15 with the SDK's own client over Streamable HTTP against the app listening on a real
 * port: the bytes an MCP engine sends. The client also validates every structuredContent
 * against the tool's outputSchema, so a result that drifts from its schema fails here.
 */
const WRITERS = ['tool_health_set_unavailable', 'tool_health_set_available', 'tool_health_set_cooldown', 'tool_health_clear'];
const READERS = ['tool_health_get', 'tool_health_lookup'];

describe('MCP endpoint (issue 15, D17, §7, §8)', () => {
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

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': key } } }));
    open.push(client);
    return client;
  }

  const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const countEntries = () => t.connection.db!.collection('tool_health').countDocuments();

  it('lists the writer and reader tools to a writer key, with §8 markers, hints and the REST input schemas', async () => {
    const { tools } = await (await connect(KEYS.writer)).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...WRITERS, ...READERS]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(tool.annotations).toMatchObject({ destructiveHint: tool.name === 'tool_health_clear', openWorldHint: false }); // P138
      expect(tool._meta).toMatchObject({ safety: 'SAFE_PROBE' });
    }
    for (const manifest of AGRAJAG_TOOLS) {
      const tool = tools.find((x) => x.name === manifest.name)!;
      expect(tool.inputSchema).toEqual(manifest.inputSchema); // the same source as REST's
      expect(tool._meta).toEqual({ safety: 'SAFE_PROBE', requiresEngineRoles: ['tool-health-writer'] });
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    }
    for (const name of READERS) {
      const tool = tools.find((x) => x.name === name)!;
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(tool._meta).toEqual({
        safety: 'SAFE_PROBE',
        requiresEngineRoles: [],
        anyOfEngineRoles: ['tool-health-writer', 'audit-reader'],
      });
    }
  });

  it.each([
    ['dispatcher', KEYS.dispatcher, []],
    ['audit-reader', KEYS.audit, READERS],
    ['admin', KEYS.admin, [...WRITERS, ...READERS]],
  ])('lists to the %s key only the tools its roles may call', async (_role, key, expected) => {
    const { tools } = await (await connect(key)).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expected);
  });

  it('records a writer verdict that REST then shows', async () => {
    const client = await connect(KEYS.writer);
    const result = await call(client, 'tool_health_set_unavailable', {
      toolName: 'jira',
      scope: 'PROJECT',
      scopeId: 'p-1',
      classification: 'TECHNICALLY_BROKEN',
      note: '502 since 14:00',
      expectedRecoveryAt: '2026-05-23T15:00:00Z',
      errorSignature: 'http-502',
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('jira is now DOWN at PROJECT');
    expect(text(result)).toContain('expected recovery 2026-05-23T15:00:00.000Z');
    expect(result.structuredContent).toMatchObject({
      tool: 'tool_health_set_unavailable',
      entry: { status: 'DOWN', scope: 'PROJECT', scopeId: 'p-1' },
    });

    const entry = await t.http
      .get('/v1/entries')
      .query({ scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira' })
      .set('x-api-key', KEYS.audit)
      .expect(200);
    expect(entry.body).toMatchObject({
      status: 'DOWN',
      expectedRecoveryAt: '2026-05-23T15:00:00.000Z',
      lastDiagnosis: { classification: 'TECHNICALLY_BROKEN', by: 'key:writer', note: '502 since 14:00' },
    });
    expect(entry.body.cooldowns[0]).toMatchObject({ errorSignature: 'http-502' });
    const lookup = await t.http
      .get('/v1/tools/jira/availability')
      .query({ projectId: 'p-1' })
      .set('x-api-key', KEYS.dispatcher)
      .expect(200);
    expect(lookup.body).toMatchObject({ status: 'DOWN', reason: 'LIVE_PROBLEM' });
  });

  it.each([
    ['dispatcher', 'tool_health_set_unavailable', KEYS.dispatcher],
    ['dispatcher', 'tool_health_get', KEYS.dispatcher],
    ['audit-reader', 'tool_health_clear', KEYS.audit],
  ])('refuses the %s key calling %s with a JSON-RPC error naming the roles, and writes nothing', async (_role, name, key) => {
    const client = await connect(key);
    const args = { toolName: 'jira', scope: 'GLOBAL', classification: 'TECHNICALLY_BROKEN', note: 'x' };
    const error = await client
      .callTool({ name, arguments: name === 'tool_health_get' ? { toolName: 'jira', scope: 'GLOBAL' } : args })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toMatch(
      new RegExp(`FORBIDDEN: key "\\w+" may not call ${name}; it needs one of the roles .*tool-health-writer.*admin`),
    );
    expect((error as McpError).data).toMatchObject({ code: 'FORBIDDEN', tool: name });
    expect(await countEntries()).toBe(0);
  });

  it('answers an unknown tool with a JSON-RPC error listing the tools of the key', async () => {
    const error = await (await connect(KEYS.audit)).callTool({ name: 'tool_health_nope', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("this key's tools are: tool_health_get, tool_health_lookup");
  });

  it.each<[string, string, Record<string, unknown>, string[]]>([
    [
      'a classification outside the enum',
      'tool_health_set_unavailable',
      { toolName: 'jira', scope: 'GLOBAL', classification: 'WORKING', note: 'x' },
      ['arguments.classification', 'TECHNICALLY_BROKEN, USER_SPECIFIC_TECHNICAL, INTERMITTENT'],
    ],
    [
      'a scope outside the enum',
      'tool_health_clear',
      { toolName: 'jira', scope: 'WORLD' },
      ['arguments.scope', 'SESSION, USER, PROJECT, TENANT, GLOBAL'],
    ],
    [
      'a missing argument',
      'tool_health_set_cooldown',
      { toolName: 'jira', scope: 'GLOBAL', classification: 'USER_INPUT' },
      ['arguments.errorSignature'],
    ],
    [
      'an argument the tool does not have',
      'tool_health_clear',
      { toolName: 'jira', scope: 'GLOBAL', status: 'OK' },
      ['arguments.status is not a parameter'],
    ],
    [
      'a scope without its id',
      'tool_health_set_available',
      { toolName: 'jira', scope: 'USER', note: 'probe ok' },
      ['scopeId', 'required for USER'],
    ],
    ['a bad id in a read tool', 'tool_health_lookup', { toolName: 'jira', sessionId: 'a b' }, ['arguments.sessionId']],
    ['a read tool without the scope', 'tool_health_get', { toolName: 'jira' }, ['arguments.scope']],
  ])('answers %s with an isError result naming the argument, writing nothing', async (_label, name, args, expected) => {
    const result = await call(await connect(KEYS.writer), name, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toMatch(/^INVALID_ARGUMENT: /);
    for (const part of expected) expect(text(result)).toContain(part);
    expect(await countEntries()).toBe(0);
  });

  it('shows the history of a few verdicts through the read tools', async () => {
    const writer = await connect(KEYS.writer);
    const key = { toolName: 'jira', scope: 'PROJECT', scopeId: 'p-1' };
    const verdicts: [string, Record<string, unknown>][] = [
      [
        'tool_health_set_unavailable',
        { ...key, classification: 'TECHNICALLY_BROKEN', note: 'gateway 502', expectedRecoveryAt: '2026-05-23T15:00:00Z' },
      ],
      ['tool_health_set_available', { ...key, note: 'probe ok' }],
      [
        'tool_health_set_unavailable',
        { ...key, classification: 'INTERMITTENT', note: 'every third call times out', errorSignature: 'timeout-30s' },
      ],
    ];
    for (const [name, args] of verdicts) {
      expect((await call(writer, name, args)).isError).toBeFalsy();
      t.clock.advance(60_000);
    }
    await call(writer, 'tool_health_set_unavailable', {
      toolName: 'jira',
      scope: 'GLOBAL',
      classification: 'TECHNICALLY_BROKEN',
      note: 'Jira Cloud outage',
    });

    const audit = await connect(KEYS.audit); // an audit-reader (Prak) reads too
    const got = await call(audit, 'tool_health_get', key);
    expect(got.isError).toBeFalsy();
    const entry = got.structuredContent as {
      found: boolean;
      entry: { status: string; history: { classification: string; status: string; by: string }[]; cooldowns: { errorSignature: string }[] };
    };
    expect(entry.found).toBe(true);
    expect(entry.entry.status).toBe('DEGRADED');
    expect(entry.entry.history.map((h) => [h.classification, h.status])).toEqual([
      ['TECHNICALLY_BROKEN', 'DOWN'],
      ['WORKING', 'OK'],
      ['INTERMITTENT', 'DEGRADED'],
    ]);
    expect(entry.entry.history.every((h) => h.by === 'key:writer')).toBe(true);
    expect(entry.entry.cooldowns.map((c) => c.errorSignature)).toEqual(['timeout-30s']);
    expect(text(got)).toMatch(
      /History, newest first: \S+ INTERMITTENT → DEGRADED by key:writer: "every third call times out"; \S+ WORKING → OK .*; \S+ TECHNICALLY_BROKEN → DOWN/,
    );
    expect(text(got)).toContain('timeout-30s (INTERMITTENT, 0 hits) no diagnosis before 2026-05-23T14:02:30.000Z');

    const missing = await call(audit, 'tool_health_get', { toolName: 'jira', scope: 'USER', scopeId: 'alice' });
    expect(missing.structuredContent).toMatchObject({ found: false, entry: null });
    expect(text(missing)).toContain('Nothing is stored for jira at USER alice');

    const lookup = await call(writer, 'tool_health_lookup', { toolName: 'jira', projectId: 'p-1', userId: 'alice', tenantId: 'acme' });
    expect(lookup.structuredContent).toMatchObject({
      toolName: 'jira',
      status: 'DEGRADED',
      reason: 'LIVE_PROBLEM',
      winner: { scope: 'PROJECT', scopeId: 'p-1', status: 'DEGRADED' },
      shadowed: [{ scope: 'GLOBAL', scopeId: null, status: 'DOWN' }],
    });
    expect(text(lookup)).toMatch(
      /^jira for this caller: DEGRADED — the narrowest live problem decides \(LIVE_PROBLEM\)\. Decided by: jira at PROJECT p-1: DEGRADED/,
    );
    expect(text(lookup)).toContain('Wider entries it hides: GLOBAL DOWN.');

    const elsewhere = await call(writer, 'tool_health_lookup', { toolName: 'jira', projectId: 'p-2' });
    expect(elsewhere.structuredContent).toMatchObject({ status: 'DOWN', winner: { scope: 'GLOBAL' } });
  });

  it('answers an unreachable database with an isError result to retry, and a bug with a JSON-RPC error that hides it', async () => {
    const cascade = t.app.get(CascadeService);
    const client = await connect(KEYS.audit);
    const spy = jest
      .spyOn(cascade, 'lookupView')
      .mockRejectedValueOnce(Object.assign(new Error('connection 3 closed'), { name: 'MongoNetworkError' }));
    try {
      const down = await call(client, 'tool_health_lookup', { toolName: 'jira' });
      expect(down.isError).toBe(true);
      expect(text(down)).toMatch(/^UNAVAILABLE: the database is unavailable; retry shortly\. /);
      spy.mockRejectedValueOnce(new TypeError('secret internals'));
      const error = await client.callTool({ name: 'tool_health_lookup', arguments: { toolName: 'jira' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InternalError);
      expect((error as McpError).message).not.toContain('secret');
      expect((await call(client, 'tool_health_lookup', { toolName: 'jira' })).structuredContent).toMatchObject({ status: 'OK' });
    } finally {
      spy.mockRestore();
    }
  });

  it('serves one client whose requests alternate between two instances (no session to lose, P70)', async () => {
    const other = await createTestApp({ clock: t.clock });
    try {
      await other.app.listen(0, '127.0.0.1');
      const instances = [url, new URL('/mcp', await other.app.getUrl())];
      const served: string[] = [];
      let next = 0;
      // A load balancer without sticky sessions: every HTTP request goes to the next instance.
      const roundRobin = (input: string | URL, init?: RequestInit) => {
        const target = instances[next++ % instances.length];
        served.push(`${init?.method ?? 'GET'} ${target.port}`);
        return fetch(target, init);
      };
      const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(url, { fetch: roundRobin, requestInit: { headers: { 'x-api-key': KEYS.writer } } }),
      );
      open.push(client);
      expect((await client.listTools()).tools).toHaveLength(6);
      const args = { toolName: 'jira', scope: 'TENANT', scopeId: 'acme', classification: 'INTERMITTENT', note: 'flaky' };
      expect((await call(client, 'tool_health_set_unavailable', args)).isError).toBeFalsy();
      expect(
        (await call(client, 'tool_health_set_available', { toolName: 'jira', scope: 'TENANT', scopeId: 'acme', note: 'probe ok' })).isError,
      ).toBeFalsy();
      const got = await call(client, 'tool_health_get', { toolName: 'jira', scope: 'TENANT', scopeId: 'acme' });
      expect((got.structuredContent as { entry: { history: { status: string }[] } }).entry.history.map((h) => h.status)).toEqual([
        'DEGRADED',
        'OK',
      ]);
      const posts = served.filter((s) => s.startsWith('POST'));
      expect(new Set(posts.map((s) => s.split(' ')[1])).size).toBe(2); // both instances answered MCP messages
    } finally {
      await other.close();
    }
  });

  describe('over plain HTTP', () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

    it('answers no key and an unknown key with 401, as a JSON-RPC error (P136)', async () => {
      for (const headers of [{}, { 'x-api-key': 'not-a-configured-key' }] as Record<string, string>[]) {
        const res = await post(list, headers);
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, data: { code: 'UNAUTHENTICATED' } }, id: null });
      }
      const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
      await expect(
        client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': 'nope' } } })),
      ).rejects.toMatchObject({ code: 401, message: expect.stringContaining('unknown API key') });
    });

    it('keeps no session: no session id is handed out and a request without initialize is answered', async () => {
      const init = await post(
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
        },
        { 'x-api-key': KEYS.writer },
      );
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect(await init.json()).toMatchObject({
        result: { serverInfo: { name: 'tool-availability-service' }, capabilities: { tools: {} } },
      });
      // Another instance would see exactly this: a request with no initialize before it.
      const res = await post(list, { 'x-api-key': KEYS.writer, 'mcp-protocol-version': '2025-06-18' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(6);
    });

    it('answers GET and DELETE with 405 (no stream, no session to end)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(url, { method, headers: { 'x-api-key': KEYS.writer, accept: 'text/event-stream' } });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
      }
    });

    it('prints the cost of a stateless call (a new server and transport per request)', async () => {
      const client = await connect(KEYS.writer);
      const n = 50;
      const started = process.hrtime.bigint();
      const statuses: unknown[] = [];
      for (let i = 0; i < n; i += 1)
        statuses.push((await call(client, 'tool_health_lookup', { toolName: `tool-${i}`, projectId: 'p-1' })).structuredContent?.status);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const restStarted = process.hrtime.bigint();
      for (let i = 0; i < n; i += 1)
        await (
          await fetch(new URL(`/v1/tools/tool-${i}/availability?projectId=p-1`, url), { headers: { 'x-api-key': KEYS.writer } })
        ).json();
      const restMs = Number(process.hrtime.bigint() - restStarted) / 1e6;
      console.log(
        `tool_health_lookup over MCP: ${n} sequential calls in ${ms.toFixed(0)} ms (${(ms / n).toFixed(2)} ms per call, SDK client included); ` +
          `the same lookup over REST (fetch): ${restMs.toFixed(0)} ms (${(restMs / n).toFixed(2)} ms per call)`,
      );
      expect(statuses).toEqual(Array(n).fill('OK'));
    });
  });
});
