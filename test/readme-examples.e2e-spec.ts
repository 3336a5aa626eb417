import { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import type { paths } from './support/openapi-types';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 14: the README's dispatcher round trip ("A dispatcher round trip") executed against the
 * service through a client typed from the served OpenAPI document (openapi-typescript types in
 * test/support/openapi-types.ts, openapi-fetch over real HTTP). A renamed field or route breaks
 * the type check of this file before it breaks a user.
 */
describe('README examples through the typed TypeScript client', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;
  const NOW = '2026-12-02T10:53:12.498Z';
  const context = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
  const failure = {
    toolName: 'jira_search',
    context,
    code: 'BACKEND_FAILED' as const,
    errorSignature: 'http-502',
    message: '502 Bad Gateway',
  };
  const as = (key: string) => ({ headers: { 'x-api-key': key } });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
    await resetDatabase(t.connection);
    t.clock.set(NOW);
  });
  afterAll(() => t.close());

  it('1. a call fails; nothing is known yet, so a diagnosis may be spawned', async () => {
    const { data, response } = await client.POST('/v1/outcomes/failure', { body: failure, ...as(KEYS.dispatcher) });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      spawn: true,
      reason: 'ELIGIBLE',
      reflectError: false,
      retryAt: null,
      retryAfterSeconds: null,
      coalescingKey: 'jira_search:http-502',
      status: 'OK',
      cooldown: null,
      widerEvidence: null,
    });
  });

  it('2. Agrajag diagnoses it as intermittent at project scope', async () => {
    const { data, response } = await client.POST('/v1/agrajag/tools/{name}/invoke', {
      params: { path: { name: 'tool_health_set_unavailable' } },
      body: {
        by: 'agrajag-7f3c',
        arguments: {
          toolName: 'jira_search',
          scope: 'PROJECT',
          scopeId: 'p-1',
          classification: 'INTERMITTENT',
          note: 'gateway 502 every few calls',
          errorSignature: 'http-502',
        },
      },
      ...as(KEYS.writer),
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      tool: 'tool_health_set_unavailable',
      summary: 'jira_search is now DEGRADED at PROJECT.',
      entry: { scope: 'PROJECT', scopeId: 'p-1', status: 'DEGRADED' },
    });
  });

  it('3. the same error again: in cooldown (30 s), no new diagnosis, reflect the error to the LLM', async () => {
    const { data } = await client.POST('/v1/outcomes/failure', { body: failure, ...as(KEYS.dispatcher) });
    expect(data).toEqual({
      spawn: false,
      reason: 'IN_COOLDOWN',
      reflectError: true,
      retryAt: '2026-12-02T10:53:42.498Z',
      retryAfterSeconds: 30,
      coalescingKey: 'jira_search:http-502',
      status: 'DEGRADED',
      cooldown: { scope: 'PROJECT', scopeId: 'p-1', errorSignature: 'http-502', userId: null },
      widerEvidence: null,
    });
  });

  it('the manifest annotation and the lookup show the tool intermittent in that context', async () => {
    const annotated = await client.POST('/v1/manifest/annotate', {
      body: {
        tools: [
          { name: 'jira_search', description: 'Search Jira issues.' },
          { name: 'calculator', description: 'Evaluate arithmetic.' },
        ],
        context,
        timeZone: 'Europe/Berlin',
      },
      ...as(KEYS.dispatcher),
    });
    expect(annotated.response.status).toBe(200);
    expect(annotated.data!.tools.map((tool) => [tool.name, tool.status, tool.doNotCall])).toEqual([
      ['jira_search', 'DEGRADED', false],
      ['calculator', 'OK', false],
    ]);
    expect(annotated.data!.tools[0].suffix).toMatch(/^intermittent/);
    const lookup = await client.GET('/v1/tools/{toolName}/availability', {
      params: { path: { toolName: 'jira_search' }, query: context },
      ...as(KEYS.dispatcher),
    });
    expect(lookup.data).toMatchObject({
      toolName: 'jira_search',
      status: 'DEGRADED',
      retesting: false,
      winner: { scope: 'PROJECT', scopeId: 'p-1' },
    });
  });

  it('4. a success naming the signature clears the entry; a second success changes nothing', async () => {
    const first = await client.POST('/v1/outcomes/success', {
      body: { toolName: 'jira_search', context, errorSignatures: ['http-502'] },
      ...as(KEYS.dispatcher),
    });
    expect(first.data).toEqual({ status: 'OK', changed: [{ scope: 'PROJECT', scopeId: 'p-1', status: 'OK' }] });
    const second = await client.POST('/v1/outcomes/success', { body: { toolName: 'jira_search', context }, ...as(KEYS.dispatcher) });
    expect(second.data).toEqual({ status: 'OK', changed: [] });
  });

  it('answers an error with the documented ErrorBody, typed per status', async () => {
    const { error, response } = await client.POST('/v1/outcomes/failure', {
      body: { ...failure, context: { ...context, projectId: 'bad id' } },
      ...as(KEYS.dispatcher),
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ statusCode: 400, error: 'INVALID_ARGUMENT', field: 'context.projectId' });
  });
});
