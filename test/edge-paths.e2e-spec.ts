import { PATH_SLASH_SENTENCE } from '../src/openapi/path-slashes';
import { servedOpenApiAnswers } from './support/openapi-answers';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 12 / P66, issue 36 / P243: an id with `/` (legal under D3a) in a path: percent-encoded;
 * sent raw, a 400 naming the parameter that the document describes — never an undocumented 404.
 */
describe('tool names containing / in a path (P66, P243)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
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

  it('a raw / is a 400 naming the parameter and the rule, as the document describes it', async () => {
    const res = await t.http.get('/v1/tools/l/x/availability').set('x-api-key', KEYS.dispatcher).expect(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'INVALID_ARGUMENT',
      field: 'toolName',
      message: 'toolName: a "/" inside a path parameter must be sent percent-encoded as %2F',
    });
    const tenant = await t.http.get('/v1/tenants/acme/eu/settings').set('x-api-key', KEYS.admin).expect(400);
    expect(tenant.body.field).toBe('tenantId');
    // the answer is the one the document gives lookupAvailability's 400
    expect(
      servedOpenApiAnswers().answerProblems({ ...res, method: 'GET', url: '/v1/tools/l%2Fx/availability', headers: res.headers }),
    ).toEqual([]);
    // a path no route could have produced stays a 404
    await t.http.get('/v1/tools/l/x').set('x-api-key', KEYS.dispatcher).expect(404);
  });

  it('the OpenAPI document says so on every path parameter that may hold a /', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; description?: string }[] }>>;
    };
    const params = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((p) => p.in === 'path' && ['toolName', 'sessionId', 'tenantId'].includes(p.name))
          .map((p) => ({ ...p, at: `${method.toUpperCase()} ${path}` })),
      ),
    );
    expect(params.map((p) => p.at).sort()).toEqual([
      'GET /v1/tenants/{tenantId}/settings',
      'GET /v1/tools/{toolName}/availability',
      'GET /v1/tools/{toolName}/stats',
      'GET /v1/tools/{toolName}/uptime',
      'POST /v1/sessions/{sessionId}/client-disconnected',
      'POST /v1/sessions/{sessionId}/client-reconnected',
      'PUT /v1/tenants/{tenantId}/settings/history-limit',
    ]);
    for (const p of params) expect(p.description).toContain(PATH_SLASH_SENTENCE);
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
