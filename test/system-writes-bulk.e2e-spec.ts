import { CommandStartedEvent } from 'mongodb';
import { EventRelay } from '../src/write-path/event-relay.service';
import { ToolHealthView } from '../src/shapes/tool-health.view';
import { viewFieldsOf } from '../src/shapes/view-field';
import { KEYS, TestApp, createTestApp, isBackgroundCommand } from './support/test-app';

/**
 * Issue 27 / D22: system writes of many tools of one scope key in one request (P159) — an MCP
 * server's connection closed, all its tools DOWN at PROJECT — written with one bulk command,
 * each tool answered, evented and listed as its single write would be.
 */
const TOOLS = Array.from({ length: 200 }, (_, i) => `mcp_tool_${i}`);
const PROJECT = { scope: 'PROJECT', scopeId: 'p1' };

describe('bulk system writes (issue 27, D22)', () => {
  let t: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    other = await createTestApp(); // a second instance on the same database
  });
  afterAll(async () => {
    await t.close();
    await other.close();
  });
  beforeEach(() => t.reset());

  const post = (app: TestApp, path: string, body: object) => app.http.post(path).set('x-api-key', KEYS.dispatcher).send(body);

  async function toolHealthWrites<T>(run: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
    const client = t.connection.getClient();
    const commands: string[] = [];
    const listener = (event: CommandStartedEvent) => {
      if (event.command[event.commandName] === 'tool_health' && !isBackgroundCommand(event) && event.commandName !== 'find')
        commands.push(event.commandName);
    };
    client.on('commandStarted', listener);
    try {
      return { result: await run(), commands };
    } finally {
      client.off('commandStarted', listener);
    }
  }

  it('marks 200 tools of one project down in one insert, then back in one update, each as its single write would', async () => {
    const down = { ...PROJECT, toolNames: TOOLS, code: 'BACKEND_UNREACHABLE', source: 'mcp-router', note: 'connection closed' };
    const { result: marked, commands: first } = await toolHealthWrites(() => post(t, '/v1/health/bulk/mark-unavailable', down).expect(200));
    expect(first).toEqual(['insert']);
    expect(marked.body.results).toHaveLength(200);
    // The single route's answer for another project at the same moment: the same entry but for its key.
    const single = await post(t, '/v1/health/mark-unavailable', {
      ...down,
      toolNames: undefined,
      scopeId: 'p2',
      toolName: TOOLS[7],
    }).expect(200);
    const strip = ({ id: _id, scopeId: _s, ...entry }: Record<string, unknown>) => entry;
    expect(strip(marked.body.results[7].entry)).toEqual(strip(single.body));
    marked.body.results.forEach((r: any, i: number) =>
      expect(r).toMatchObject({
        toolName: TOOLS[i],
        status: 200,
        entry: { toolName: TOOLS[i], status: 'DOWN', code: 'BACKEND_UNREACHABLE', version: 1 },
      }),
    );

    // Listed before they existed (P81): the manifest read of the project finds every one.
    const annotated = await post(t, '/v1/manifest/annotate/changes', {
      tools: TOOLS.map((name) => ({ name })),
      context: { projectId: 'p1' },
    }).expect(200);
    expect(annotated.body.plain).toBe(0);
    expect(annotated.body.tools.map((tool: { name: string }) => tool.name)).toEqual(TOOLS);

    const back = { ...PROJECT, toolNames: TOOLS, source: 'mcp-router', note: 'connected again' };
    const { result: cleared, commands: second } = await toolHealthWrites(() => post(t, '/v1/health/bulk/mark-available', back).expect(200));
    expect(second).toEqual(['update']);
    expect(cleared.body.results.every((r: any) => r.status === 200 && r.entry.status === 'OK' && r.entry.version === 2)).toBe(true);

    // Events per document as today: each tool went DOWN, then OK.
    await t.app.get(EventRelay).drain();
    const events: { toolName: string; scopeId: string; type: string; status: string }[] = [];
    let after: string | null = null;
    do {
      const page: { events: typeof events; endCursor: string | null } = (
        await t.http
          .get(`/v1/events?limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`)
          .set('x-api-key', KEYS.audit)
          .expect(200)
      ).body;
      events.push(...page.events);
      after = page.events.length > 0 ? page.endCursor : null;
    } while (after);
    for (const tool of TOOLS) {
      expect(events.filter((e) => e.toolName === tool && e.scopeId === 'p1' && e.type === 'STATUS_CHANGED').map((e) => e.status)).toEqual([
        'DOWN',
        'OK',
      ]);
    }
  });

  it('answers each entry as JSON, in the very text its own lookup answers, whatever the entry holds', async () => {
    // P353: the entries of both answers are written by the compiled writer of ToolHealthView, so
    // the bulk write's account of a tool and a later read of it are the same bytes.
    const tools = TOOLS.slice(0, 3);
    const down = {
      ...PROJECT,
      toolNames: tools,
      code: 'BACKEND_UNREACHABLE',
      source: 'mcp-router',
      note: 'quote " backslash \\ ünïcode \u0001',
    };
    await post(t, '/v1/health/bulk/mark-unavailable', down).expect(200);
    await post(t, '/v1/cooldowns', {
      ...PROJECT,
      toolName: tools[1],
      errorSignature: 'http-502',
      classification: 'TECHNICALLY_BROKEN',
    }).expect(200);
    const marked = await post(t, '/v1/health/bulk/mark-intermittent', { ...down, code: null }).expect(200);
    expect(marked.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const [i, tool] of tools.entries()) {
      const read = await t.http.get(`/v1/entries?scope=PROJECT&scopeId=p1&toolName=${tool}`).set('x-api-key', KEYS.audit).expect(200);
      expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.stringify(marked.body.results[i].entry)).toBe(read.text);
      // Exactly the properties the contract declares, in its order.
      expect(Object.keys(read.body)).toEqual(viewFieldsOf(ToolHealthView).map((field) => field.name));
      expect(read.body).toMatchObject({
        status: 'DEGRADED',
        version: i === 1 ? 3 : 2,
        history: [{ note: down.note }, { note: down.note }],
      });
    }
    expect(JSON.parse(marked.text).results[1].entry.cooldowns).toEqual([expect.objectContaining({ errorSignature: 'http-502', hits: 0 })]);
  });

  it('answers a tool with nothing stored 404 alone; the others are written', async () => {
    await post(t, '/v1/health/bulk/mark-intermittent', { ...PROJECT, toolNames: ['a', 'b'], source: 'probe' }).expect(200);
    const res = await post(t, '/v1/health/bulk/mark-available', { ...PROJECT, toolNames: ['a', 'never', 'b'], source: 'probe' }).expect(
      200,
    );
    expect(res.body.results.map((r: any) => [r.toolName, r.status, r.entry?.status])).toEqual([
      ['a', 200, 'OK'],
      ['never', 404, undefined],
      ['b', 200, 'OK'],
    ]);
    expect(res.body.results[1].error).toMatchObject({
      statusCode: 404,
      error: 'NOT_FOUND',
      message: 'no health entry for PROJECT p1 / never',
    });
  });

  it('refuses a bad key, a repeated tool or 501 tools whole, naming the field', async () => {
    const body = { scope: 'GLOBAL', scopeId: 'x', toolNames: ['a'], code: 'BACKEND_FAILED', source: 'probe' };
    expect((await post(t, '/v1/health/bulk/mark-unavailable', body).expect(400)).body.field).toBe('scopeId');
    expect(
      (await post(t, '/v1/health/bulk/mark-unavailable', { ...body, scopeId: null, toolNames: ['a', 'a'] }).expect(400)).body.field,
    ).toBe('toolNames');
    const many = Array.from({ length: 501 }, (_, i) => `t${i}`);
    expect((await post(t, '/v1/health/bulk/mark-unavailable', { ...body, scopeId: null, toolNames: many }).expect(400)).body.field).toBe(
      'toolNames',
    );
    expect(
      (await post(t, '/v1/health/bulk/mark-unavailable', { ...body, scopeId: null, toolNames: ['bad name'] }).expect(400)).body.field,
    ).toBe('toolNames');
    expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);
  });

  it('loses no write when two instances write the same tools at once, in bulk and one by one', async () => {
    const tools = TOOLS.slice(0, 50);
    await post(t, '/v1/health/bulk/mark-intermittent', { ...PROJECT, toolNames: tools, source: 'seed' }).expect(200);
    const bulk = (app: TestApp, source: string) =>
      post(app, '/v1/health/bulk/mark-unavailable', { ...PROJECT, toolNames: tools, code: 'BACKEND_FAILED', source });
    const answers = await Promise.all([
      bulk(t, 'a'),
      bulk(other, 'b'),
      ...tools.slice(0, 10).map((toolName) => post(other, '/v1/health/mark-intermittent', { ...PROJECT, toolName, source: 'c' })),
      bulk(other, 'd'),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    const docs = await t.connection.db!.collection('tool_health').find({}).toArray();
    expect(docs).toHaveLength(50);
    for (const doc of docs) {
      const single = tools.indexOf(doc.toolName as string) < 10;
      // Every acknowledged write is one version and one history item (seed + a + b + d, + c for the first ten).
      expect(doc.version).toBe(single ? 5 : 4);
      expect((doc.history as { by: string }[]).map((h) => h.by).sort()).toEqual(
        ['system:seed', 'system:a', 'system:b', 'system:d', ...(single ? ['system:c'] : [])].sort(),
      );
    }
  });

  it('a large answer goes as its UTF-8 bytes: the same JSON, its length counted in bytes, replayed byte for byte (P369)', async () => {
    const note = 'connexion fermée — ✂ 🔌';
    const down = { ...PROJECT, toolNames: TOOLS, code: 'BACKEND_UNREACHABLE', source: 'mcp-router', note };
    const send = () =>
      t.http.post('/v1/health/bulk/mark-unavailable').set('x-api-key', KEYS.dispatcher).set('Idempotency-Key', 'bulk-bytes-1').send(down);
    const first = await send().expect(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    // Well beyond the size from which an answer is sent as bytes.
    expect(first.text.length).toBeGreaterThan(100_000);
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.text, 'utf8'));
    expect(first.body.results.map((r: any) => r.entry.lastDiagnosis.note)).toEqual(TOOLS.map(() => note));

    const again = await send().expect(200);
    expect(again.headers['idempotent-replayed']).toBeDefined();
    expect(again.text).toBe(first.text);
  });
});
