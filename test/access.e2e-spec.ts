import { KEYS, TestApp, createTestApp } from './support/test-app';

describe('access from the start (D17)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const write = { scope: 'GLOBAL', toolName: 'jira', code: 'BACKEND_FAILED', source: 'x' };

  it('answers 401 without a key and with an unknown key', async () => {
    const none = await t.http.post('/v1/health/mark-unavailable').send(write).expect(401);
    expect(none.body.error).toBe('UNAUTHENTICATED');
    await t.http.post('/v1/health/mark-unavailable').set('x-api-key', 'not-a-key').send(write).expect(401);
    await t.http.get('/v1/tools/jira/availability').expect(401);
  });

  it('answers 403 for a wrong role and lets the right role and admin through', async () => {
    const res = await t.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.audit).send(write).expect(403);
    expect(res.body.error).toBe('FORBIDDEN');
    await t.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.writer).send(write).expect(403);
    await t.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.dispatcher).send(write).expect(200);
    await t.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.admin).send(write).expect(200);
    await t.http.put('/v1/tenants/t/settings/history-limit').set('x-api-key', KEYS.dispatcher).send({ historyLimit: 5 }).expect(403);
  });

  it('keeps the probes open', async () => {
    await t.http.get('/health/live').expect(200, { status: 'ok' });
    await t.http.get('/health/ready').expect(200, { status: 'ok', database: 'up' });
  });

  it('serves the OpenAPI document (docs are on outside production)', async () => {
    const res = await t.http.get('/docs/openapi.json').expect(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/v1/health/mark-unavailable', '/v1/availability/lookup']));
  });
});
