import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 14 / P85: an admin changes a cooldown's window without restarting it, over REST
 * (POST /v1/cooldowns/window) and GraphQL (changeCooldownWindow). setCooldown with durationMs
 * restarts at now; this keeps the cooldown's start.
 */
describe('changing a cooldown window', () => {
  let t: TestApp;
  const T0 = '2026-05-23T14:00:00.000Z';
  const H = 3_600_000;
  const KEY = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira_search' };
  const CONTEXT = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset(); // the previous test's buffered hits would otherwise move this document's version
    t.clock.set(T0);
    // a scope-wide USER_INPUT cooldown would be 5 min; take USER_PERMISSION for alice: 24 h from T0
    await t.http
      .post('/v1/cooldowns')
      .set('x-api-key', KEYS.dispatcher)
      .send({ ...KEY, errorSignature: 'http-403', classification: 'USER_PERMISSION', userId: 'alice' })
      .expect(200);
  });

  const failure = () =>
    t.http
      .post('/v1/outcomes/failure')
      .set('x-api-key', KEYS.dispatcher)
      .send({ toolName: 'jira_search', context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-403' })
      .expect(200);

  it('REST: shortens a running cooldown from its start, keeps its classification, and the dispatcher sees the new end', async () => {
    t.clock.advance(30 * 60_000);
    expect((await failure()).body).toMatchObject({ reason: 'IN_COOLDOWN', retryAt: '2026-05-24T14:00:00.000Z' });
    const res = await t.http
      .post('/v1/cooldowns/window')
      .set('x-api-key', KEYS.admin)
      .send({ ...KEY, errorSignature: 'http-403', userId: 'alice', windowMs: 2 * H })
      .expect(200);
    expect(res.body.cooldowns).toEqual([
      expect.objectContaining({
        errorSignature: 'http-403',
        userId: 'alice',
        windowMs: 2 * H,
        nextSpawnAllowedAt: '2026-05-23T16:00:00.000Z',
        lastClassification: 'USER_PERMISSION',
      }),
    ]);
    expect((await failure()).body).toMatchObject({
      reason: 'IN_COOLDOWN',
      retryAt: '2026-05-23T16:00:00.000Z',
      retryAfterSeconds: 90 * 60,
    });
    t.clock.set('2026-05-23T16:00:01.000Z');
    expect((await failure()).body.reason).not.toBe('IN_COOLDOWN');
  });

  it('REST: 404 for a cooldown that does not exist, 400 naming windowMs, 403 for the dispatcher; nothing written', async () => {
    const before = await t.http.get('/v1/entries').query(KEY).set('x-api-key', KEYS.admin).expect(200);
    const missing = await t.http
      .post('/v1/cooldowns/window')
      .set('x-api-key', KEYS.admin)
      .send({ ...KEY, errorSignature: 'http-403', windowMs: H })
      .expect(404);
    expect(missing.body.error).toBe('NOT_FOUND');
    const bad = await t.http
      .post('/v1/cooldowns/window')
      .set('x-api-key', KEYS.admin)
      .send({ ...KEY, errorSignature: 'http-403', userId: 'alice', windowMs: 999 })
      .expect(400);
    expect(bad.body.message).toContain('windowMs');
    await t.http
      .post('/v1/cooldowns/window')
      .set('x-api-key', KEYS.dispatcher)
      .send({ ...KEY, errorSignature: 'http-403', userId: 'alice', windowMs: H })
      .expect(403);
    const noEntry = await t.http
      .post('/v1/cooldowns/window')
      .set('x-api-key', KEYS.admin)
      .send({ ...KEY, toolName: 'other', errorSignature: 'http-403', windowMs: H })
      .expect(404);
    expect(noEntry.body.error).toBe('NOT_FOUND');
    const after = await t.http.get('/v1/entries').query(KEY).set('x-api-key', KEYS.admin).expect(200);
    expect(after.body.version).toBe(before.body.version);
  });

  it('GraphQL: changeCooldownWindow lengthens it from its start', async () => {
    t.clock.advance(H);
    const res = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.admin)
      .send({
        query:
          'mutation($i: ChangeCooldownWindowInput!) { changeCooldownWindow(input: $i) { cooldowns { userId windowMs nextSpawnAllowedAt } } }',
        variables: { i: { ...KEY, errorSignature: 'http-403', userId: 'alice', windowMs: 48 * H } },
      })
      .expect(200);
    expect(res.body).toEqual({
      data: {
        changeCooldownWindow: { cooldowns: [{ userId: 'alice', windowMs: 48 * H, nextSpawnAllowedAt: '2026-05-25T14:00:00.000Z' }] },
      },
    });
  });
});
