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
    expect(res.body.message).not.toContain(`${field}: ${field}`); // P64: the field once
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

/** P64: each message names its field once, in words a client can act on. */
describe('validation messages', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const base = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'mcp_search', code: 'BACKEND_FAILED', source: 'mcp' };
  const markUnavailable = (body: object) =>
    t.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.dispatcher).send(body).expect(400);
  const gql = (query: string, key: string = KEYS.admin) => t.http.post('/graphql').set('x-api-key', key).send({ query });

  it('REST (class-validator): "toolName must be …", "status should not exist", the date rule in words', async () => {
    expect((await markUnavailable({ ...base, toolName: 'mcp search!' })).body.message).toBe(
      'toolName must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -',
    );
    expect((await markUnavailable({ ...base, status: 'DOWN' })).body.message).toBe('status should not exist');
    expect((await markUnavailable({ ...base, expectedRecoveryAt: 'tomorrow-ish' })).body.message).toMatch(
      /^expectedRecoveryAt must be an RFC 3339 date-time/,
    );
    const two = await markUnavailable({ ...base, scope: 'GALAXY', code: 'ON_FIRE' });
    expect(two.body.message.split('; ').sort()).toEqual([
      expect.stringMatching(/^code must be one of the following values: /),
      expect.stringMatching(/^scope must be one of the following values: /),
    ]);
  });

  it('GraphQL arguments: "first must not be greater than 500"', async () => {
    const res = await gql('{ healthEvents(first: 501) { pageInfo { hasNextPage } } }');
    expect(res.body.errors[0]).toMatchObject({
      message: 'first must not be greater than 500',
      extensions: { code: 'BAD_USER_INPUT', field: 'first' },
    });
  });

  it('a wrong role lists each needed role once ("needs one of: admin")', async () => {
    const res = await gql('mutation { deleteToolHealth(input: { scope: GLOBAL, toolName: "x" }) { id } }', KEYS.audit);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(res.body.errors[0].message).toMatch(/\(needs one of: admin\)$/);
  });
});
