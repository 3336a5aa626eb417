import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

const SCOPES = [
  { scope: 'SESSION', scopeId: 's-1', context: { sessionId: 's-1' } },
  { scope: 'USER', scopeId: 'alice', context: { userId: 'alice' } },
  { scope: 'PROJECT', scopeId: 'p-1', context: { projectId: 'p-1' } },
  { scope: 'TENANT', scopeId: 't-1', context: { tenantId: 't-1' } },
  { scope: 'GLOBAL', scopeId: null, context: {} },
] as const;

describe('system writes and cascade lookup (REST)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  const post = (path: string, body: object, key: string = KEYS.dispatcher) => t.http.post(path).set('x-api-key', key).send(body);
  const get = (path: string, key: string = KEYS.dispatcher) => t.http.get(path).set('x-api-key', key);

  it.each(SCOPES)('writes at $scope and the lookup finds it', async ({ scope, scopeId, context }) => {
    const written = await post('/v1/health/mark-unavailable', {
      scope,
      scopeId,
      toolName: 'mcp_search',
      code: 'BACKEND_FAILED',
      source: 'mcp-router',
      note: 'connection closed',
    }).expect(200);
    expect(written.body).toMatchObject({ scope, scopeId, toolName: 'mcp_search', status: 'DOWN', code: 'BACKEND_FAILED', version: 1 });
    expect(written.body.lastDiagnosis).toMatchObject({ classification: null, code: 'BACKEND_FAILED', by: 'system:mcp-router' });

    const query = new URLSearchParams(context as Record<string, string>).toString();
    const lookup = await get(`/v1/tools/mcp_search/availability?${query}`).expect(200);
    expect(lookup.body).toMatchObject({ status: 'DOWN', retesting: false, reason: 'LIVE_PROBLEM', winner: { scope, scopeId } });

    const entry = await get(`/v1/entries?scope=${scope}&toolName=mcp_search${scopeId ? `&scopeId=${scopeId}` : ''}`).expect(200);
    expect(entry.body.id).toBe(written.body.id);
  });

  it('holds entries at three scopes at once: the narrowest live problem wins, OK is neutral', async () => {
    await post('/v1/health/mark-unavailable', { scope: 'GLOBAL', toolName: 'jira', code: 'BACKEND_UNREACHABLE', source: 'probe' }).expect(
      200,
    );
    await post('/v1/health/mark-intermittent', { scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira', source: 'probe' }).expect(200);
    await post('/v1/health/mark-unavailable', {
      scope: 'USER',
      scopeId: 'alice',
      toolName: 'jira',
      code: 'BACKEND_FAILED',
      source: 'probe',
    }).expect(200);
    await post('/v1/health/mark-available', { scope: 'USER', scopeId: 'alice', toolName: 'jira', source: 'probe' }).expect(200);

    const alice = await post('/v1/availability/lookup', { toolNames: ['jira'], context: { userId: 'alice', projectId: 'p-1' } }).expect(
      200,
    );
    expect(alice.body[0]).toMatchObject({ status: 'DEGRADED', winner: { scope: 'PROJECT' } });
    expect(alice.body[0].considered.map((e: { scope: string }) => e.scope)).toEqual(['USER', 'PROJECT', 'GLOBAL']);
    expect(alice.body[0].shadowed).toEqual([expect.objectContaining({ scope: 'GLOBAL', status: 'DOWN' })]);

    const elsewhere = await post('/v1/availability/lookup', {
      toolNames: ['jira', 'confluence'],
      context: { userId: 'bob', projectId: 'p-2' },
    }).expect(200);
    expect(elsewhere.body.map((e: { status: string }) => e.status)).toEqual(['DOWN', 'OK']);
    expect(elsewhere.body[1]).toMatchObject({ reason: 'DEFAULT_OK', winner: null });
  });

  it('keeps the newest 20 of 25 history items, in order', async () => {
    for (let i = 0; i < 25; i++) {
      await post('/v1/health/mark-unavailable', {
        scope: 'PROJECT',
        scopeId: 'p-1',
        toolName: 'mcp_search',
        code: 'BACKEND_FAILED',
        source: 'mcp',
        note: `n${i}`,
      }).expect(200);
    }
    const entry = await get('/v1/entries?scope=PROJECT&scopeId=p-1&toolName=mcp_search').expect(200);
    expect(entry.body.history.map((h: { note: string }) => h.note)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i + 5}`));
    expect(entry.body.version).toBe(25);
  });

  it('lands all of 50 concurrent writes to one key (tenant history limit 100)', async () => {
    await t.http.put('/v1/tenants/t-9/settings/history-limit').set('x-api-key', KEYS.admin).send({ historyLimit: 100 }).expect(200);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post('/v1/health/mark-unavailable', {
          scope: 'TENANT',
          scopeId: 't-9',
          toolName: 'jira',
          code: 'BACKEND_FAILED',
          source: 'w',
          note: `w${i}`,
        }).expect(200),
      ),
    );
    const entry = await get('/v1/entries?scope=TENANT&scopeId=t-9&toolName=jira').expect(200);
    expect(entry.body.version).toBe(50);
    expect(new Set(entry.body.history.map((h: { note: string }) => h.note))).toEqual(
      new Set(Array.from({ length: 50 }, (_, i) => `w${i}`)),
    );
  });

  it('moves `since` only when the status changes', async () => {
    const key = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'mcp_search', source: 'mcp' };
    const first = await post('/v1/health/mark-unavailable', { ...key, code: 'BACKEND_FAILED' }).expect(200);
    t.clock.advance(60_000);
    const again = await post('/v1/health/mark-unavailable', { ...key, code: 'BACKEND_UNREACHABLE' }).expect(200);
    expect(again.body.since).toBe(first.body.since);
    expect(again.body.lastCheckedAt).not.toBe(first.body.lastCheckedAt);
    t.clock.advance(60_000);
    const ok = await post('/v1/health/mark-available', key).expect(200);
    expect(ok.body).toMatchObject({ status: 'OK', code: null, expectedRecoveryAt: null });
    expect(ok.body.since).toBe(t.clock.now().toISOString());
  });

  it("marks a disconnected client's tools DOWN for that session only and clears them on reconnect", async () => {
    const at = '2026-05-23T13:58:00.000Z';
    const down = await post('/v1/sessions/s-1/client-disconnected', {
      source: 'foot',
      at,
      tools: [{ name: 'client_file_read', description: 'Read a file on the user machine' }, { name: 'client_shell' }],
    }).expect(200);
    expect(down.body.changed).toEqual(['client_file_read', 'client_shell']);

    const mine = await post('/v1/availability/lookup', {
      toolNames: ['client_file_read', 'client_shell'],
      context: { sessionId: 's-1' },
    }).expect(200);
    expect(mine.body.map((e: { status: string }) => e.status)).toEqual(['DOWN', 'DOWN']);
    expect(mine.body[0].winner).toMatchObject({ code: 'BACKEND_UNREACHABLE', since: at, description: 'Read a file on the user machine' });
    const other = await post('/v1/availability/lookup', { toolNames: ['client_file_read'], context: { sessionId: 's-2' } }).expect(200);
    expect(other.body[0].status).toBe('OK');

    const up = await post('/v1/sessions/s-1/client-reconnected', {
      source: 'foot',
      tools: ['client_file_read', 'client_shell', 'client_never_down'],
    }).expect(200);
    expect(up.body.changed).toEqual(['client_file_read', 'client_shell']);
    const after = await post('/v1/availability/lookup', { toolNames: ['client_file_read'], context: { sessionId: 's-1' } }).expect(200);
    expect(after.body[0].status).toBe('OK');
  });

  it('answers 404 for a key with no entry', async () => {
    const res = await get('/v1/entries?scope=GLOBAL&toolName=nothing_here').expect(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });
});
