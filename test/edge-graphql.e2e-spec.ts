import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 12, GraphQL without a key (P61, P62): every request needs a key whatever its transport or
 * extension; persisted queries off; limits count `__` fields; introspection only for roles with
 * GraphQL access (D17); no "Did you mean" where introspection is off.
 */

const TYPENAME_QUERY = '{ __typename }';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const apq = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

describe('GraphQL edge (development settings)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (body: unknown, key?: string) => {
    const req = t.http.post('/graphql').set('content-type', 'application/json');
    if (key !== undefined) req.set('x-api-key', key);
    return req.send(JSON.stringify(body));
  };

  it('a GET with only `extensions` (an APQ replay, no `query`) and no key is a 401', async () => {
    const extensions = encodeURIComponent(JSON.stringify(apq(TYPENAME_QUERY)));
    const res = await t.http.get(`/graphql?extensions=${extensions}`).set('apollo-require-preflight', 'true').expect(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    for (const search of ['?operationName=x', '?variables=%7B%7D', '?foo=bar']) {
      await t.http.get(`/graphql${search}`).set('apollo-require-preflight', 'true').expect(401);
    }
  });

  it('automatic persisted queries are off: registering fails, a replay by hash fails, also with a key', async () => {
    const register = await post({ query: TYPENAME_QUERY, extensions: apq(TYPENAME_QUERY) }, KEYS.admin);
    expect(register.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
    const extensions = encodeURIComponent(JSON.stringify(apq(TYPENAME_QUERY)));
    const replay = await t.http
      .get(`/graphql?extensions=${extensions}`)
      .set('x-api-key', KEYS.admin)
      .set('apollo-require-preflight', 'true');
    expect(replay.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
    expect(replay.body.data).toBeUndefined();
  });

  it('the key check applies to every body form and method, and to a percent-encoded path', async () => {
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'query=%7B__typename%7D'],
      ['text/plain', JSON.stringify({ query: TYPENAME_QUERY })],
      ['application/graphql', TYPENAME_QUERY],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{__typename}"}\r\n--x--\r\n',
      ],
    ]) {
      const res = await t.http.post('/graphql').set('content-type', type).send(body);
      expect([type, res.status]).toEqual([type, 401]);
    }
    await t.http
      .put('/graphql')
      .send({ query: TYPENAME_QUERY })
      .expect((res) => expect([401, 404]).toContain(res.status));
    const encoded = await t.http
      .post('/graph%71l')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ query: TYPENAME_QUERY }));
    expect([encoded.status, encoded.text]).toEqual([401, expect.any(String)]); // the router decodes %71 to q: same route, same check
    expect(JSON.stringify(encoded.body)).not.toContain('"__typename":"Query"');
  });

  it('dispatcher and writer keys may not introspect (D17: no GraphQL access): 403 FORBIDDEN, nothing of the schema', async () => {
    for (const key of [KEYS.dispatcher, KEYS.writer]) {
      for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Query") { name } }', getIntrospectionQuery()]) {
        const res = await post({ query }, key);
        expect(res.status).toBe(403);
        expect(res.body.errors[0]).toMatchObject({
          message: 'introspection needs one of: admin, audit-reader',
          extensions: { code: 'FORBIDDEN' },
        });
        expect(res.body.data).toBeUndefined();
      }
    }
  });

  it('admin and audit-reader keys may run the standard (GraphiQL) introspection query', async () => {
    for (const key of [KEYS.admin, KEYS.audit]) {
      const res = await post(
        { query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true }) },
        key,
      ).expect(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.__schema.queryType.name).toBe('Query');
    }
  });

  it('aliases of __schema are refused before anything runs (the field limit counts __ fields)', async () => {
    const aliases = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `s${i}: __schema { types { name kind description fields { name description type { name kind } args { name } } } }`,
      ).join(' ');
    let started = Date.now();
    let res = await post({ query: `{ ${aliases(40)} }` }, KEYS.admin); // 40 aliases × 13 fields
    console.log(`40 __schema aliases (520 fields) refused in ${Date.now() - started} ms, answer ${res.text.length} bytes`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: 'query is too large: the limit is 400 fields',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(res.text.length).toBeLessThan(2000);
    // The 1 000 (30 MB of answer before): now past the parser's token bound.
    started = Date.now();
    res = await post({ query: `{ ${aliases(1000)} }` }, KEYS.admin);
    console.log(`1 000 __schema aliases refused in ${Date.now() - started} ms, answer ${res.text.length} bytes`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('more than 50 aliases are refused, __typename ones too', async () => {
    const aliases = Array.from({ length: 51 }, (_, i) => `t${i}: __typename`).join(' ');
    const res = await post({ query: `{ ${aliases} }` }, KEYS.admin);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('query has too many aliases: the limit is 50');
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}: __typename`).join(' ');
    expect((await post({ query: `{ ${fifty} }` }, KEYS.admin).expect(200)).body.data.t49).toBe('Query');
  });

  it('keeps "Did you mean" where introspection is on (development)', async () => {
    const res = await post({ query: 'mutation { pinToolHealt }' }, KEYS.admin);
    expect(res.body.errors[0].message).toMatch(/Did you mean/);
  });
});

describe('GraphQL edge (production settings)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  const post = (body: unknown, key: string = KEYS.admin) =>
    t.http.post('/graphql').set('content-type', 'application/json').set('x-api-key', key).send(JSON.stringify(body));

  it('refuses introspection for every key, admin included', async () => {
    for (const key of [KEYS.admin, KEYS.audit, KEYS.dispatcher]) {
      const res = await post({ query: '{ __schema { queryType { name } } }' }, key);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.body.data).toBeUndefined();
    }
  });

  it('strips "Did you mean" suggestions (they would spell out the schema)', async () => {
    const cases = ['mutation { pinToolHealt }', '{ toolOverview(toolNam: "x") { total } }', 'query ($s: Scop) { __typename }'];
    for (const query of cases) {
      const res = await post({ query });
      expect(res.status).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const error of res.body.errors) expect(error.message).not.toMatch(/Did you mean|"pinToolHealth"|"Scope"/);
    }
  });

  it('200 000 __typename aliases are refused at the parser, before validation and execution', async () => {
    const query = `{ ${Array.from({ length: 200_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const started = Date.now();
    const res = await post({ query });
    console.log(`200 000 __typename aliases (${query.length} bytes) refused in ${Date.now() - started} ms`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/Document contains more (than|that) 10000 tokens/);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });
});
