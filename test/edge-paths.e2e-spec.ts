import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/** Issue 12 / P66: a tool name with `/` (legal under D3a) in a path: percent-encoded, and said so. */
describe('tool names containing / in a path (P66)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await resetDatabase(t.connection);
  });
  afterAll(() => t.close());

  it('l%2Fx reaches the route and finds what was written under "l/x"', async () => {
    await t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: 'l/x', code: 'BACKEND_FAILED', source: 'e2e' })
      .expect(200);
    const res = await t.http.get('/v1/tools/l%2Fx/availability').set('x-api-key', KEYS.dispatcher).expect(200);
    expect(res.body).toMatchObject({ status: 'DOWN' });
  });

  it('a raw / is a 404 that says to percent-encode it', async () => {
    const res = await t.http.get('/v1/tools/l/x/availability').set('x-api-key', KEYS.dispatcher).expect(404);
    expect(res.body).toMatchObject({ error: 'NOT_FOUND' });
    expect(res.body.message).toMatch(/percent-encoded in the path \(%2F\)/);
  });

  it('the OpenAPI document says so on every toolName path parameter', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; description?: string }[] }>>;
    };
    const params = Object.values(doc.paths)
      .flatMap((item) => Object.values(item).flatMap((op) => op.parameters ?? []))
      .filter((p) => p.in === 'path' && p.name === 'toolName');
    expect(params.length).toBeGreaterThan(0);
    for (const p of params) expect(p.description).toMatch(/%2F/);
  });
});

describe('/favicon.ico', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('is an icon, served without a key, in production too', async () => {
    const res = await t.http.get('/favicon.ico').buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect((res.body as Buffer).readUInt16LE(2)).toBe(1); // an ICO directory
  });
});
