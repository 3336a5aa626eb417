import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { CONTEXT, T0, TOOL, buildState, stateArb } from './support/evaluation-states';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 24 / D20, through the real routes: over generated states (entries at every scope with every
 * status and estimate, pins, overlapping and adjacent windows, cooldowns of every class), the REST
 * lookup, GraphQL effectiveHealth, the MCP lookup, the annotation, explain and the failure answer
 * agree on status, trace, back-at and retryAt — they all read one evaluation (P129, P130).
 */
describe('one evaluation, every reader (issue 24, D20, property through the routes)', () => {
  let t: TestApp;
  let mcp: Client;

  beforeAll(async () => {
    t = await createTestApp({
      env: { BOOKKEEPING_FLUSH_MS: '0', WIDER_EVIDENCE_FLUSH_MS: '0', MAINTENANCE_TICK_MS: '0', MAINTENANCE_CACHE_MS: '0' },
    });
    await t.app.listen(0, '127.0.0.1');
    mcp = new Client({ name: 'call-evaluation-e2e', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', await t.app.getUrl()), { requestInit: { headers: { 'x-api-key': KEYS.audit } } }),
    );
  });
  afterAll(async () => {
    await mcp.close();
    await t.close();
  });

  const post = (key: string, path: string, body: object) => t.http.post(path).set('x-api-key', key).send(body);
  async function gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
    const res = await post(KEYS.admin, '/graphql', { query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  }

  async function readAll() {
    const rest = (await t.http.get(`/v1/tools/${TOOL}/availability`).query(CONTEXT).set('x-api-key', KEYS.audit).expect(200)).body;
    const batch = (await post(KEYS.dispatcher, '/v1/availability/lookup', { toolNames: [TOOL], context: CONTEXT }).expect(200)).body[0];
    const graph = (
      await gql(`{ effectiveHealth(toolName: "${TOOL}", context: {userId: "alice", projectId: "p1", tenantId: "acme"}) {
        status retesting reason backAt blocked trace { reason why } } }`)
    ).effectiveHealth;
    const result = (await mcp.callTool({ name: 'tool_health_lookup', arguments: { toolName: TOOL, ...CONTEXT } })) as CallToolResult;
    const viaMcp = result.structuredContent as Record<string, any>;
    const annotated = (
      await post(KEYS.dispatcher, '/v1/manifest/annotate', {
        tools: [{ name: TOOL, description: 'd' }],
        context: CONTEXT,
        timeZone: 'UTC',
      }).expect(200)
    ).body.tools[0];
    const explained = (
      await post(KEYS.dispatcher, '/v1/manifest/explain', { toolName: TOOL, registryKnows: true, context: CONTEXT }).expect(200)
    ).body;
    const failure = (
      await post(KEYS.dispatcher, '/v1/outcomes/failure', {
        toolName: TOOL,
        context: CONTEXT,
        code: 'BACKEND_FAILED',
        errorSignature: 'http-502',
      }).expect(200)
    ).body;
    return { rest, batch, graph, viaMcp, annotated, explained, failure };
  }

  it('status, trace, back-at and retryAt agree across REST, GraphQL, MCP, annotation, explain and the failure answer', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, async (state) => {
        await t.reset();
        t.clock.set(T0);
        await buildState(t, state);
        const { rest, batch, graph, viaMcp, annotated, explained, failure } = await readAll();

        for (const view of [batch, graph, viaMcp]) {
          expect({ status: view.status, reason: view.reason, backAt: view.backAt, blocked: view.blocked, why: view.trace.why }).toEqual({
            status: rest.status,
            reason: rest.reason,
            backAt: rest.backAt,
            blocked: rest.blocked,
            why: rest.trace.why,
          });
        }
        expect(annotated.status).toBe(rest.status);
        expect(annotated.reason.why).toEqual(rest.trace.why);
        expect(explained.trace.why).toEqual(rest.trace.why);
        expect(failure.status).toBe(rest.status);
        expect(failure.why.slice(0, rest.trace.why.length)).toEqual(rest.trace.why);
        expect(annotated.doNotCall).toBe(rest.status === 'DOWN' && !rest.retesting);
        if (annotated.doNotCall) {
          expect(rest.blocked).toBe(true);
          if (rest.backAt) expect(annotated.suffix).toContain(`expected back at ${rest.backAt.slice(11, 16)}`);
          else expect(annotated.suffix).not.toContain('expected back at');
        }
        if (!failure.spawn && failure.retryAt && rest.backAt)
          expect(Date.parse(failure.retryAt)).toBeGreaterThanOrEqual(Date.parse(rest.backAt));
        if (rest.blocked && rest.backAt === null) expect(failure.retryAt).toBeNull();
        if (failure.reason === 'UNDER_MAINTENANCE') expect(failure).toMatchObject({ spawn: false, cooldown: null, widerEvidence: null });
      }),
      { numRuns: 8, seed: 24 },
    );
  }, 300_000);
});
