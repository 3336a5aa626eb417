import { KEYS, TestApp, createTestApp } from './support/test-app';

/** Issue 6 item 2, GraphQL side: bounded queries, no batching, CSRF prevention, masked errors. */
describe('GraphQL hardening', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (body: unknown) =>
    t.http.post('/graphql').set('x-api-key', KEYS.admin).set('content-type', 'application/json').send(JSON.stringify(body));

  it('refuses an operation with more fields than the limit before running it', async () => {
    // Fragments are expanded each time they are spread: 400 spreads + the root field = 401 fields.
    const spreads = Array.from({ length: 400 }, () => '...F').join(' ');
    const res = await post({ query: `{ tenantSettings(tenantId: "t") { ${spreads} } } fragment F on TenantSettings { tenantId }` });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: 'query is too large: the limit is 400 fields',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const aliases = Array.from({ length: 51 }, (_, i) => `a${i}: tenantSettings(tenantId: "t") { tenantId }`).join(' ');
    const aliased = await post({ query: `{ ${aliases} }` });
    expect(aliased.status).toBe(400);
    expect(aliased.body.errors[0].message).toBe('query has too many aliases: the limit is 50');
    const fine = await post({ query: '{ tenantSettings(tenantId: "t") { tenantId } }' });
    expect(fine.status).toBe(200);
  });

  it('refuses batched HTTP requests', async () => {
    const res = await post([{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/batch/i);
  });

  it('refuses a GET operation without a preflight-forcing header (CSRF prevention)', async () => {
    const res = await t.http.get('/graphql').query({ query: '{ __typename }' }).set('x-api-key', KEYS.admin);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/CSRF|preflight/i);
  });
});
