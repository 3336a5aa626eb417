import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

describe('bad input gets a 400 naming the field and writes nothing', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  const base = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'mcp_search', code: 'BACKEND_FAILED', source: 'mcp' };

  it.each([
    ['GLOBAL with a scopeId', { ...base, scope: 'GLOBAL', scopeId: 'x' }, 'scopeId'],
    ['SESSION without a scopeId', { ...base, scope: 'SESSION', scopeId: undefined }, 'scopeId'],
    ['an unknown scope', { ...base, scope: 'GALAXY' }, 'scope'],
    ['an unknown code', { ...base, code: 'ON_FIRE' }, 'code'],
    ['a tool name outside the character set', { ...base, toolName: 'mcp search!' }, 'toolName'],
    ['a scope id with a $ operator', { ...base, scopeId: { $gt: '' } }, 'scopeId'],
    ['an unknown field', { ...base, status: 'DOWN' }, 'status'],
    ['a date that is not one', { ...base, expectedRecoveryAt: 'tomorrow-ish' }, 'expectedRecoveryAt'],
  ])('%s', async (_, body, field) => {
    const res = await t.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.dispatcher).send(body).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'INVALID_ARGUMENT', field });
    expect(res.body.message).toContain(field);
    expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);
  });

  it('refuses an unknown status filter on the lookup of an entry', async () => {
    const res = await t.http.get('/v1/entries?scope=NOPE&toolName=x').set('x-api-key', KEYS.audit).expect(400);
    expect(res.body.field).toBe('scope');
  });

  it('refuses malformed JSON with a 400, not a 500', async () => {
    const res = await t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .set('content-type', 'application/json')
      .send('{"scope": ')
      .expect(400);
    expect(res.body.error).toBe('INVALID_ARGUMENT');
  });
});
