import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

describe('the Agrajag tools (§7 third row, §8)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  const invoke = (name: string, args: object, key: string = KEYS.writer) =>
    t.http.post(`/v1/agrajag/tools/${name}/invoke`).set('x-api-key', key).send({ arguments: args, by: 'agrajag-42' });

  it('publishes exactly the four tools as SAFE_PROBE manifests for tool-health-writer', async () => {
    const res = await t.http.get('/v1/agrajag/tools').set('x-api-key', KEYS.writer).expect(200);
    expect(res.body.map((m: { name: string }) => m.name)).toEqual([
      'tool_health_set_unavailable',
      'tool_health_set_available',
      'tool_health_set_cooldown',
      'tool_health_clear',
    ]);
    for (const m of res.body) {
      expect(m).toMatchObject({
        safety: 'SAFE_PROBE',
        requiresEngineRoles: ['tool-health-writer'],
        inputSchema: { type: 'object', additionalProperties: false },
      });
    }
  });

  it.each([
    ['dispatcher', KEYS.dispatcher],
    ['audit-reader', KEYS.audit],
  ])('refuses a %s caller', async (_, key) => {
    await invoke(
      'tool_health_set_unavailable',
      { toolName: 'jira', scope: 'GLOBAL', classification: 'TECHNICALLY_BROKEN', note: 'x' },
      key,
    ).expect(403);
    await t.http.get('/v1/agrajag/tools').set('x-api-key', key).expect(403);
  });

  it('sets unavailable, cooldown, available and clear, recording who', async () => {
    const down = await invoke('tool_health_set_unavailable', {
      toolName: 'jira',
      scope: 'PROJECT',
      scopeId: 'p-1',
      classification: 'TECHNICALLY_BROKEN',
      note: '502 since 14:00',
      expectedRecoveryAt: '2026-05-23T15:00:00Z',
      errorSignature: 'http-502',
    }).expect(200);
    expect(down.body.entry).toMatchObject({
      status: 'DOWN',
      expectedRecoveryAt: '2026-05-23T15:00:00.000Z',
      lastDiagnosis: { classification: 'TECHNICALLY_BROKEN', by: 'agrajag-42' },
    });
    expect(down.body.entry.cooldowns[0]).toMatchObject({ errorSignature: 'http-502', nextSpawnAllowedAt: '2026-05-23T15:00:00.000Z' });

    const cooldown = await invoke('tool_health_set_cooldown', {
      toolName: 'jira',
      scope: 'USER',
      scopeId: 'alice',
      errorSignature: 'http-403',
      classification: 'USER_PERMISSION',
      userId: 'alice',
      durationSeconds: 3600,
    }).expect(200);
    expect(cooldown.body.entry.cooldowns[0]).toMatchObject({ userId: 'alice', windowMs: 3_600_000 });

    const up = await invoke('tool_health_set_available', { toolName: 'jira', scope: 'PROJECT', scopeId: 'p-1', note: 'probe ok' }).expect(
      200,
    );
    expect(up.body.entry).toMatchObject({ status: 'OK', lastDiagnosis: { classification: 'WORKING', by: 'agrajag-42' } });

    await invoke('tool_health_set_unavailable', {
      toolName: 'jira',
      scope: 'PROJECT',
      scopeId: 'p-1',
      classification: 'INTERMITTENT',
      note: 'flaky',
    }).expect(200);
    const cleared = await invoke('tool_health_clear', { toolName: 'jira', scope: 'PROJECT', scopeId: 'p-1', note: 'fixed by ops' }).expect(
      200,
    );
    expect(cleared.body.entry.status).toBe('OK');
    expect(cleared.body.entry.history.at(-1)).toMatchObject({ by: 'agrajag-42', classification: null, status: 'OK' });
  });

  it('answers invalid arguments with errors an LLM can act on', async () => {
    const wrongClass = await invoke('tool_health_set_unavailable', {
      toolName: 'jira',
      scope: 'GLOBAL',
      classification: 'WORKING',
      note: 'x',
    }).expect(400);
    expect(wrongClass.body.field).toBe('arguments.classification');
    expect(wrongClass.body.message).toContain('TECHNICALLY_BROKEN');
    const missing = await invoke('tool_health_set_cooldown', { toolName: 'jira', scope: 'GLOBAL', classification: 'USER_INPUT' }).expect(
      400,
    );
    expect(missing.body.message).toContain('errorSignature');
    const extra = await invoke('tool_health_clear', { toolName: 'jira', scope: 'GLOBAL', status: 'OK' }).expect(400);
    expect(extra.body.message).toContain('arguments.status is not a parameter');
    const scope = await invoke('tool_health_set_unavailable', {
      toolName: 'jira',
      scope: 'SESSION',
      scopeId: 's',
      classification: 'TECHNICALLY_BROKEN',
      note: 'x',
    }).expect(400);
    expect(scope.body.field).toBe('scope');
    await invoke('tool_health_nope', {}).expect(404);
    expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);
  });

  it('admins hold every role', async () => {
    await invoke('tool_health_set_available', { toolName: 'jira', scope: 'GLOBAL', note: 'ok' }, KEYS.admin).expect(200);
  });
});
