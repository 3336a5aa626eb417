import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/** D17 on GraphQL over HTTP: 401 without a known key, FORBIDDEN for a wrong role. */
describe('GraphQL access (D17)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  const gql = (query: string, variables: Record<string, unknown> = {}, key?: string) => {
    const req = t.http.post('/graphql');
    if (key !== undefined) req.set('x-api-key', key);
    return req.send({ query, variables });
  };

  const QUERY = '{ toolOverview(toolName: "jira") { total } }';
  const MUTATION = 'mutation { markToolUnavailable(input: {scope: GLOBAL, toolName: "jira", code: BACKEND_FAILED}) { status } }';

  it('answers HTTP 401 with a GraphQL error body without a key or with an unknown key', async () => {
    for (const key of [undefined, 'not-a-key', '']) {
      const res = await gql(QUERY, {}, key).expect(401);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.body.data).toBeUndefined();
    }
    await gql(MUTATION).expect(401);
    expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);
  });

  it('answers 401 to a GET carrying a query without a key, and serves it with one', async () => {
    const q = encodeURIComponent(QUERY);
    const refused = await t.http.get(`/graphql?query=${q}`).expect(401);
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const served = await t.http.get(`/graphql?query=${q}`).set('x-api-key', KEYS.audit).set('apollo-require-preflight', 'true').expect(200);
    expect(served.body.data.toolOverview.total).toBe(0);
  });

  it('leaves the browser GET of /graphql (the playground page) open', async () => {
    const res = await t.http.get('/graphql').set('accept', 'text/html');
    expect(res.status).not.toBe(401);
  });

  it('lets audit-reader query but not mutate', async () => {
    const read = await gql(QUERY, {}, KEYS.audit).expect(200);
    expect(read.body).toEqual({ data: { toolOverview: { total: 0 } } });
    const write = await gql(MUTATION, {}, KEYS.audit).expect(200);
    expect(write.body.data).toBeNull();
    expect(write.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(write.body.errors[0].message).toContain('admin');
    expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);
  });

  it.each([
    ['dispatcher', KEYS.dispatcher],
    ['tool-health-writer', KEYS.writer],
  ])('refuses %s both queries and mutations with FORBIDDEN', async (_, key) => {
    const read = await gql(QUERY, {}, key).expect(200);
    expect(read.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const write = await gql(MUTATION, {}, key).expect(200);
    expect(write.body.errors[0].extensions.code).toBe('FORBIDDEN');
    // issue 36: no stack trace in any answer, in development mode too (this app is NODE_ENV=test)
    expect(JSON.stringify([read.body, write.body])).not.toMatch(/stacktrace|\.[jt]s:\d+|\bat .+\(/);
  });

  it('refuses every mutation to audit-reader, every query to dispatcher', async () => {
    const schema = await gql('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }', {}, KEYS.admin).expect(200);
    const queries: string[] = schema.body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    const mutations: string[] = schema.body.data.__schema.mutationType.fields.map((f: { name: string }) => f.name);
    expect(mutations.sort()).toEqual([...Object.keys(MUTATION_ARGS), 'sweepCooldowns'].sort()); // deprecated runSweep is not listed by default
    expect(queries.sort()).toEqual(
      [
        'toolHealth',
        'toolHealths',
        'effectiveHealth',
        'toolOverview',
        'cooldownsDueForSweep',
        'dueForProbe',
        'healthEvents',
        'tenantSettings',
        'node',
        'maintenanceWindows',
        'annotatedTool',
        'viewer',
        'failureCheck',
        'webhookEndpoints',
        'webhookEndpoint',
        'webhookDeliveries',
        'toolStats',
        'toolUptime',
        'toolSignals',
        'calendarFeedTokens',
      ].sort(),
    );
    // Each operation's own argument checks run after the guard, so dummy arguments suffice.
    const forbidden = async (operation: string, key: string) => {
      const res = await gql(operation, {}, key).expect(200);
      expect({ operation, code: res.body.errors?.[0]?.extensions?.code }).toEqual({ operation, code: 'FORBIDDEN' });
    };
    for (const name of mutations) await forbidden(`mutation { ${name}${MUTATION_ARGS[name] ?? ''} { __typename } }`, KEYS.audit);
    for (const name of queries) await forbidden(`{ ${name}${QUERY_ARGS[name] ?? ''} { __typename } }`, KEYS.dispatcher);
  });

  it('admin may do everything', async () => {
    const write = await gql(MUTATION, {}, KEYS.admin).expect(200);
    expect(write.body).toEqual({ data: { markToolUnavailable: { status: 'DOWN' } } });
    const read = await gql(QUERY, {}, KEYS.admin).expect(200);
    expect(read.body.data.toolOverview.total).toBe(1);
  });
});

const KEY = 'scope: GLOBAL, toolName: "jira"';
const MUTATION_ARGS: Record<string, string> = {
  markToolUnavailable: `(input: {${KEY}, code: BACKEND_FAILED})`,
  markToolIntermittent: `(input: {${KEY}})`,
  markToolAvailable: `(input: {${KEY}})`,
  setCooldown: `(input: {${KEY}, errorSignature: "http-500", classification: INTERMITTENT})`,
  clearCooldown: `(input: {${KEY}, errorSignature: "http-500"})`,
  changeCooldownWindow: `(input: {${KEY}, errorSignature: "http-500", windowMs: 60000})`,
  recordDiagnosis: `(input: {${KEY}, classification: WORKING})`,
  clearToolHealth: `(input: {${KEY}})`,
  setTenantHistoryLimit: '(input: {tenantId: "t1", historyLimit: 5})',
  pinToolHealth: `(input: {${KEY}, status: OK, until: "2030-01-01T00:00:00Z", reason: "r"})`,
  unpinToolHealth: `(input: {${KEY}})`,
  deleteToolHealth: `(input: {${KEY}})`,
  purgeToolHealth: '(input: {scope: SESSION, olderThan: "2026-01-01T00:00:00Z"})',
  scheduleMaintenance: `(input: {${KEY}, from: "2030-01-01T00:00:00Z", until: "2030-01-01T02:00:00Z", reason: "r"})`,
  changeMaintenance: '(input: {id: "w1", reason: "r"})',
  cancelMaintenance: '(id: "w1")',
  skipMaintenanceOccurrence: '(input: {id: "w1", occurrence: "2030-01-01T00:00:00Z"})',
  changeMaintenanceOccurrence: '(input: {id: "w1", occurrence: "2030-01-01T00:00:00Z", reason: "r"})',
  endMaintenanceSeries: '(input: {id: "w1"})',
  createWebhookEndpoint: '(input: {url: "http://127.0.0.1:9/x"})',
  changeWebhookEndpoint: '(input: {id: "e1"})',
  deleteWebhookEndpoint: '(id: "e1")',
  rotateWebhookSecret: '(id: "e1")',
  pingWebhookEndpoint: '(id: "e1")',
  resendWebhookDelivery: '(id: "d1")',
  createCalendarFeedToken: '(input: {label: "l"})',
  revokeCalendarFeedToken: '(id: "c1")',
};
const QUERY_ARGS: Record<string, string> = {
  toolHealth: `(${KEY})`,
  effectiveHealth: '(toolName: "jira")',
  toolOverview: '(toolName: "jira")',
  annotatedTool: '(toolName: "jira")',
  failureCheck: '(toolName: "jira", errorSignature: "http-500")',
  tenantSettings: '(tenantId: "t1")',
  node: '(id: "GLOBAL|%00|jira")',
  webhookEndpoint: '(id: "e1")',
  webhookDeliveries: '(endpointId: "e1")',
  toolStats: '(toolName: "jira")',
  toolUptime: '(toolName: "jira")',
};

describe('GraphQL errors in production', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  const gql = (query: string) => t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query });

  it('carries a code an admin tool can branch on and never a stack trace', async () => {
    const notFound = await gql('{ toolHealth(scope: GLOBAL, toolName: "nothing_here") { id } }').expect(200);
    expect(notFound.body.errors[0].extensions).toEqual({ code: 'NOT_FOUND' });
    const invalid = await gql('{ toolHealths(first: 0) { edges { cursor } } }').expect(200);
    expect(invalid.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'first' });
    const unknownField = await gql('{ toolHealths { nope } }');
    expect(unknownField.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify([notFound.body, invalid.body, unknownField.body])).not.toMatch(/stacktrace|\.ts:\d+|at .+\(/);
  });
});

/** No stack trace in any answer body, in development mode too (P244). */
describe('GraphQL errors in development mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development' } });
  });
  afterAll(() => t.close());

  it('keep their message and code, never a stack trace: a wrong role, an unknown field, a missing entry', async () => {
    const forbidden = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.dispatcher)
      .send({ query: 'mutation { clearToolHealth(input: { scope: GLOBAL, toolName: "x" }) { id } }' });
    const unknownField = await t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query: '{ toolHealths { nope } }' });
    const notFound = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.admin)
      .send({ query: '{ toolHealth(scope: GLOBAL, toolName: "nothing_here") { id } }' });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(unknownField.body.errors[0]).toMatchObject({
      message: expect.stringContaining('nope'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(notFound.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(JSON.stringify([forbidden.body, unknownField.body, notFound.body])).not.toMatch(/stacktrace|\.ts:\d+|at .+\(/);
  });

  it.each(['application/graphql-response+json', 'application/json'])(
    'answers a refused introspection (403) and a validation error without a stack trace (%s)',
    async (accept) => {
      const introspection = await t.http
        .post('/graphql')
        .set('x-api-key', KEYS.dispatcher)
        .set('accept', accept)
        .send({ query: '{ __schema { queryType { name } } }' });
      expect(introspection.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN' });
      const invalid = await t.http
        .post('/graphql')
        .set('x-api-key', KEYS.admin)
        .set('accept', accept)
        .send({ query: '{ toolHealths { nope } }' });
      expect(invalid.body.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED' });
      expect(invalid.body.errors[0].message).toContain('nope'); // development mode keeps the message
      expect(JSON.stringify([introspection.body, invalid.body])).not.toMatch(/stacktrace|\.[jt]s:\d+|\bat .+\(/);
    },
  );
});
