import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/** Issue 7: /metrics behind the key, and the hot routes' compiled validation end to end. */
describe('metrics and the hot path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  const post = (path: string, body: unknown, key: string = KEYS.dispatcher) =>
    t.http
      .post(path)
      .set('x-api-key', key)
      .send(body as object);
  const scrape = (key: string = KEYS.audit) => t.http.get('/metrics').set('x-api-key', key);
  const value = (text: string, sample: string): number | undefined => {
    const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
    return line === undefined ? undefined : Number(line.slice(sample.length + 1));
  };

  it('serves /metrics to audit-reader and admin only', async () => {
    await t.http.get('/metrics').expect(401);
    await scrape(KEYS.dispatcher).expect(403);
    await scrape(KEYS.writer).expect(403);
    await scrape(KEYS.admin).expect(200);
    const res = await scrape().expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE tas_http_request_duration_seconds histogram');
  });

  it('counts cooldown hits and diagnoses spawned vs avoided, and labels latency by route pattern', async () => {
    const before = (await scrape().expect(200)).text;
    const context = { userId: 'alice', projectId: 'p-1' };
    const failure = { toolName: 'jira', context, code: 'BACKEND_FAILED', errorSignature: 'http-502' };
    expect((await post('/v1/outcomes/failure', failure).expect(200)).body.reason).toBe('ELIGIBLE');
    expect((await post('/v1/outcomes/failure', { ...failure, classification: 'INTERMITTENT' }).expect(200)).body.reason).toBe(
      'CLASSIFIED_BY_CHECKER',
    );
    expect((await post('/v1/outcomes/failure', failure).expect(200)).body).toMatchObject({
      reason: 'IN_COOLDOWN',
      cooldown: { scope: 'PROJECT' },
    });
    await t.http.get('/v1/tools/jira/availability?userId=alice').set('x-api-key', KEYS.dispatcher).expect(200);
    await t.http.get('/no/such/route/123').set('x-api-key', KEYS.dispatcher).expect(404);

    const after = (await scrape().expect(200)).text;
    const delta = (sample: string) => (value(after, sample) ?? 0) - (value(before, sample) ?? 0);
    expect(delta('tas_diagnoses_total{decision="spawned",reason="ELIGIBLE"}')).toBe(1);
    expect(delta('tas_diagnoses_total{decision="avoided",reason="CLASSIFIED_BY_CHECKER"}')).toBe(1);
    expect(delta('tas_diagnoses_total{decision="avoided",reason="IN_COOLDOWN"}')).toBe(1);
    expect(delta('tas_cooldown_hits_total{scope="PROJECT"}')).toBe(1);
    expect(delta('tas_http_request_duration_seconds_count{method="POST",route="/v1/outcomes/failure",status_code="200"}')).toBe(3);
    expect(delta('tas_http_request_duration_seconds_count{method="GET",route="/v1/tools/:toolName/availability",status_code="200"}')).toBe(
      1,
    );
    expect(after).not.toContain('route="/v1/tools/jira/availability"');
    expect(delta('tas_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(after).not.toContain('/no/such/route');
  });

  it('reports documents by scope and status', async () => {
    await post('/v1/health/mark-unavailable', { scope: 'GLOBAL', toolName: 'jira', code: 'BACKEND_UNREACHABLE', source: 'mcp' }).expect(
      200,
    );
    const text = (await scrape().expect(200)).text;
    expect(text).toMatch(/^tas_documents\{scope="GLOBAL",status="DOWN"\} \d+$/m);
    expect(value(text, 'tas_documents{scope="SESSION",status="DEGRADED"}')).toBeGreaterThanOrEqual(0);
  });

  describe('outcome bodies (compiled JSON-schema validation)', () => {
    it.each([
      ['/v1/outcomes/success', { toolName: 'jira search' }, 'toolName'],
      ['/v1/outcomes/success', { toolName: 'jira', context: { userId: { $gt: '' } } }, 'context.userId'],
      ['/v1/outcomes/success', { toolName: 'jira', context: { team: 'x' } }, 'context.team'],
      ['/v1/outcomes/success', { toolName: 'jira', errorSignatures: ['ok', 'not ok'] }, 'errorSignatures[1]'],
      ['/v1/outcomes/success', { toolName: 'jira', status: 'OK' }, 'status'],
      ['/v1/outcomes/failure', { toolName: 'jira', errorSignature: 'e' }, 'code'],
      ['/v1/outcomes/failure', { toolName: 'jira', code: 'ON_FIRE', errorSignature: 'e' }, 'code'],
      [
        '/v1/outcomes/failure',
        { toolName: 'jira', code: 'BACKEND_FAILED', errorSignature: 'e', classification: 'MAYBE' },
        'classification',
      ],
      ['/v1/outcomes/failure', ['not', 'an', 'object'], 'body'],
    ])('%s %j → 400 naming %s, nothing written', async (path, body, field) => {
      const res = await post(path, body).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'INVALID_ARGUMENT', field });
      expect(res.body.message).toContain(field);
      expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);
    });

    it('checks the key before the body: no key is a 401 whatever the body', async () => {
      await t.http.post('/v1/outcomes/success').send({ toolName: 'bad name' }).expect(401);
      await post('/v1/outcomes/failure', { toolName: 'bad name' }, KEYS.audit).expect(403);
    });

    it('still accepts null for the optional fields, as before', async () => {
      await post('/v1/outcomes/success', { toolName: 'jira', context: null, errorSignatures: null }).expect(200);
      await post('/v1/outcomes/failure', {
        toolName: 'jira',
        code: 'BACKEND_FAILED',
        errorSignature: 'e',
        classification: null,
        message: null,
      }).expect(200);
    });

    it('still describes both bodies in the OpenAPI document', async () => {
      const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
      for (const [path, dto] of [
        ['/v1/outcomes/success', 'SuccessReportDto'],
        ['/v1/outcomes/failure', 'FailureReportDto'],
      ]) {
        expect(doc.paths[path].post.requestBody.content['application/json'].schema.$ref).toBe(`#/components/schemas/${dto}`);
        expect(doc.components.schemas[dto].properties.toolName).toBeDefined();
      }
      expect(doc.paths['/metrics'].get).toBeDefined();
    });
  });
});
