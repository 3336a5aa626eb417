import { CommandStartedEvent } from 'mongodb';
import { BookkeepingBuffer } from '../src/features/outcomes/bookkeeping-buffer.service';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 11, sequences 1–6 (evidence that stays in its scope, D18 / P50–P52), replayed on the real
 * database through the REST and GraphQL APIs. Each test failed on the code before the fix.
 */
describe('evidence stays in its scope (issue 11, sequences 1–6)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  const as = (key: string) => ({
    post: (path: string, body: object) => t.http.post(path).set('x-api-key', key).send(body),
    put: (path: string, body: object) => t.http.put(path).set('x-api-key', key).send(body),
    get: (path: string) => t.http.get(path).set('x-api-key', key),
  });
  const dispatcher = as(KEYS.dispatcher);
  const writer = as(KEYS.writer);
  const admin = as(KEYS.admin);
  const entry = async (scope: string, scopeId: string | null, toolName: string) =>
    (await dispatcher.get(`/v1/entries?scope=${scope}&toolName=${toolName}${scopeId ? `&scopeId=${scopeId}` : ''}`).expect(200)).body;
  const failure = (body: object) => dispatcher.post('/v1/outcomes/failure', { code: 'BACKEND_FAILED', ...body });
  const success = (body: object) => dispatcher.post('/v1/outcomes/success', body).expect(200);
  const lookup = async (toolName: string, context: object) =>
    (await dispatcher.post('/v1/availability/lookup', { toolNames: [toolName], context }).expect(200)).body[0];
  async function gql(query: string, variables: Record<string, unknown>): Promise<any> {
    const res = await admin.post('/graphql', { query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  }
  const pin = (key: object, status: string, until: string, reason: string) =>
    gql('mutation($input: PinToolHealthInput!) { pinToolHealth(input: $input) { id } }', { input: { ...key, status, until, reason } });
  const flush = () => t.app.get(BookkeepingBuffer).flush();
  const outage = () =>
    writer
      .post('/v1/diagnoses', {
        scope: 'GLOBAL',
        toolName: 'jira',
        classification: 'TECHNICALLY_BROKEN',
        note: 'Jira Cloud outage',
        by: 'agrajag-1',
      })
      .expect(200);

  describe("1. a tenant's pin does not clear everyone's outage", () => {
    it('acme pins TENANT jira OK; an acme success leaves GLOBAL DOWN for every other tenant', async () => {
      await outage();
      await pin({ scope: 'TENANT', scopeId: 'acme', toolName: 'jira' }, 'OK', '2026-05-24T14:00:00.000Z', 'acme runs its own Jira');

      const res = await success({ toolName: 'jira', context: { tenantId: 'acme', userId: 'a1' } });
      expect(res.body.changed).toEqual([]);
      expect(res.body.status).toBe('OK');
      expect((await entry('GLOBAL', null, 'jira')).status).toBe('DOWN');
      expect((await lookup('jira', { tenantId: 'globex', userId: 'g1' })).status).toBe('DOWN');
      expect((await lookup('jira', { tenantId: 'acme', userId: 'a2' })).status).toBe('OK');
    });

    it('an acme failure does not mark lastFailureAt on the GLOBAL document either', async () => {
      await writer
        .post('/v1/diagnoses', { scope: 'GLOBAL', toolName: 'jira', classification: 'INTERMITTENT', note: 'flaky', by: 'a' })
        .expect(200);
      await pin({ scope: 'TENANT', scopeId: 'acme', toolName: 'jira' }, 'OK', '2026-05-24T14:00:00.000Z', 'acme runs its own Jira');
      t.clock.advance(60_000);
      await failure({ toolName: 'jira', context: { tenantId: 'acme' }, errorSignature: 'http-502' }).expect(200);
      await flush();
      expect((await entry('GLOBAL', null, 'jira')).lastFailureAt).toBeNull();
      expect((await entry('TENANT', 'acme', 'jira')).lastFailureAt).toBe(t.clock.now().toISOString());
    });
  });

  describe('2. Bob is never stopped by a user-class cooldown that is not his (§6)', () => {
    it("a checker USER_PERMISSION for a caller without userId stores no cooldown; Bob's 403 is then eligible", async () => {
      const anonymous = await failure({
        toolName: 'jira',
        context: { projectId: 'p-1' },
        errorSignature: 'http-403',
        classification: 'USER_PERMISSION',
      }).expect(200);
      expect(anonymous.body).toMatchObject({ spawn: false, reason: 'CLASSIFIED_BY_CHECKER', cooldown: null, retryAt: null });
      expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);

      const bob = await failure({ toolName: 'jira', context: { userId: 'bob', projectId: 'p-1' }, errorSignature: 'http-403' }).expect(200);
      expect(bob.body).toMatchObject({ spawn: true, reason: 'ELIGIBLE' });
    });

    it('a REST, Agrajag or verdict cooldown of a user class at a shared scope without userId is a 400 naming userId', async () => {
      const rest = await dispatcher
        .post('/v1/cooldowns', {
          scope: 'PROJECT',
          scopeId: 'p-1',
          toolName: 'jira',
          errorSignature: 'http-403',
          classification: 'USER_PERMISSION',
        })
        .expect(400);
      expect(rest.body.message).toMatch(/userId/);
      const tool = await writer
        .post('/v1/agrajag/tools/tool_health_set_cooldown/invoke', {
          arguments: { toolName: 'jira', scope: 'TENANT', scopeId: 't-1', errorSignature: 'http-403', classification: 'USER_PERMISSION' },
          by: 'agrajag-1',
        })
        .expect(400);
      expect(tool.body.message).toMatch(/userId/);
      await writer
        .post('/v1/diagnoses', {
          scope: 'GLOBAL',
          toolName: 'jira',
          classification: 'USER_INPUT',
          note: 'bad input',
          by: 'a',
          errorSignature: 'schema',
        })
        .expect(400);
      expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);

      // At USER scope the cooldown is that user's.
      await dispatcher
        .post('/v1/cooldowns', {
          scope: 'USER',
          scopeId: 'alice',
          toolName: 'jira',
          errorSignature: 'http-403',
          classification: 'USER_PERMISSION',
        })
        .expect(200);
      expect((await entry('USER', 'alice', 'jira')).cooldowns[0].userId).toBe('alice');
    });

    it('a scope-wide USER_PERMISSION entry already stored (userId null) stops nobody', async () => {
      await dispatcher
        .post('/v1/cooldowns', {
          scope: 'PROJECT',
          scopeId: 'p-1',
          toolName: 'jira',
          errorSignature: 'http-403',
          classification: 'USER_PERMISSION',
          userId: 'alice',
        })
        .expect(200);
      // As a writer before this rule left it: the same entry without its user.
      await t.connection
        .db!.collection('tool_health')
        .updateOne({ scope: 'PROJECT', scopeId: 'p-1' }, { $set: { 'cooldowns.0.userId': null }, $inc: { version: 1 } });
      const bob = await failure({ toolName: 'jira', context: { userId: 'bob', projectId: 'p-1' }, errorSignature: 'http-403' }).expect(200);
      expect(bob.body).toMatchObject({ spawn: true, reason: 'ELIGIBLE', cooldown: null });
    });
  });

  describe("3. a user's failure does not move shared state", () => {
    it("Alice's classified 403 leaves the GLOBAL DEGRADED entry's lastFailureAt alone; a technical failure in cooldown marks it (D20)", async () => {
      await dispatcher.post('/v1/health/mark-intermittent', { scope: 'GLOBAL', toolName: 'jira', source: 'probe' }).expect(200);
      await dispatcher
        .post('/v1/cooldowns', {
          scope: 'GLOBAL',
          toolName: 'jira',
          errorSignature: 'http-429',
          classification: 'INTERMITTENT',
          durationMs: 3600_000,
        })
        .expect(200);
      t.clock.advance(10 * 60_000);
      const context = { sessionId: 's-1', userId: 'alice', projectId: 'p-1', tenantId: 't-1' };
      await failure({ toolName: 'jira', context, errorSignature: 'http-403', classification: 'USER_PERMISSION' }).expect(200);
      await flush();
      expect((await entry('GLOBAL', null, 'jira')).lastFailureAt).toBeNull();
      const inCooldown = await failure({ toolName: 'jira', context, errorSignature: 'http-429' }).expect(200);
      expect(inCooldown.body.reason).toBe('IN_COOLDOWN');
      await flush();

      // Changed with D20 (issue 24, sequence 4): a technical failure in cooldown marks the entry that
      // governs the call, so "last failure N min ago" stays true; the user-class 403 still marks nothing.
      const global = await entry('GLOBAL', null, 'jira');
      expect(global.lastFailureAt).toBe(t.clock.now().toISOString());
      expect(global.cooldowns[0]).toMatchObject({ hits: 1, lastTriggeredAt: t.clock.now().toISOString() });
      expect((await entry('USER', 'alice', 'jira')).cooldowns[0]).toMatchObject({ userId: 'alice', lastClassification: 'USER_PERMISSION' });
    });
  });

  describe('4. under an OK pin a stale DOWN can be disproven', () => {
    it('a success under the pin updates the stored status beneath; when the pin ends the tool is usable', async () => {
      await outage();
      await pin({ scope: 'GLOBAL', toolName: 'jira' }, 'OK', '2026-05-23T15:00:00.000Z', 'vendor says it is back');
      t.clock.advance(10 * 60_000);
      const res = await success({ toolName: 'jira', context: { userId: 'alice' } });
      expect(res.body.changed).toEqual([{ scope: 'GLOBAL', scopeId: null, status: 'OK' }]);
      const stored = await entry('GLOBAL', null, 'jira');
      expect(stored).toMatchObject({ status: 'OK', pin: { status: 'OK' } });
      expect(stored.history.at(-1)).toMatchObject({ classification: 'WORKING', by: 'auto-clear' });

      t.clock.set('2026-05-23T15:01:00.000Z');
      expect((await lookup('jira', { userId: 'bob' })).status).toBe('OK');
    });
  });

  describe("5. history limits come from the document's own tenant", () => {
    it('Agrajag verdicts (which carry no tenant) keep a PROJECT document of a tenant with limit 100 at 100', async () => {
      await admin.put('/v1/tenants/t-100/settings/history-limit', { historyLimit: 100 }).expect(200);
      await dispatcher
        .post('/v1/health/mark-unavailable', {
          scope: 'PROJECT',
          scopeId: 'p-1',
          toolName: 'jira',
          code: 'BACKEND_FAILED',
          source: 'mcp',
          tenantId: 't-100',
        })
        .expect(200);
      for (let i = 0; i < 30; i++) {
        t.clock.advance(1000);
        await writer
          .post('/v1/agrajag/tools/tool_health_set_unavailable/invoke', {
            arguments: { toolName: 'jira', scope: 'PROJECT', scopeId: 'p-1', classification: 'TECHNICALLY_BROKEN', note: `probe ${i}` },
            by: 'agrajag-1',
          })
          .expect(200);
      }
      const doc = await entry('PROJECT', 'p-1', 'jira');
      expect(doc.tenantId).toBe('t-100');
      expect(doc.history).toHaveLength(31);
    });

    it('a GLOBAL document uses the default whoever wrote it first, and records no tenant', async () => {
      await admin.put('/v1/tenants/t-3/settings/history-limit', { historyLimit: 3 }).expect(200);
      for (let i = 0; i < 6; i++) {
        t.clock.advance(1000);
        await dispatcher
          .post('/v1/health/mark-unavailable', {
            scope: 'GLOBAL',
            toolName: 'jira',
            code: 'BACKEND_FAILED',
            source: 'mcp',
            note: `n${i}`,
            tenantId: 't-3',
          })
          .expect(200);
      }
      const doc = await entry('GLOBAL', null, 'jira');
      expect(doc.tenantId).toBeNull();
      expect(doc.history).toHaveLength(6);
    });
  });

  describe("6. every answer's retryAt agrees with the next check", () => {
    it("under a DOWN pin retryAt is the pin's end", async () => {
      await pin({ scope: 'GLOBAL', toolName: 'jira' }, 'DOWN', '2026-05-23T14:30:00.000Z', 'maintenance');
      const res = await failure({ toolName: 'jira', context: { userId: 'bob' }, errorSignature: 'http-502' }).expect(200);
      expect(res.body).toMatchObject({ spawn: false, reason: 'KNOWN_DOWN', retryAt: '2026-05-23T14:30:00.000Z', retryAfterSeconds: 1800 });
      t.clock.set('2026-05-23T14:30:00.000Z');
      const next = await failure({ toolName: 'jira', context: { userId: 'bob' }, errorSignature: 'http-502' }).expect(200);
      expect(next.body).toMatchObject({ spawn: true, reason: 'ELIGIBLE' });
    });

    it('a checker-classified failure under a wider cooldown reports the wider end', async () => {
      await dispatcher
        .post('/v1/cooldowns', {
          scope: 'TENANT',
          scopeId: 't-1',
          toolName: 'jira',
          errorSignature: 'http-502',
          classification: 'INTERMITTENT',
          durationMs: 2 * 3600_000,
        })
        .expect(200);
      const context = { userId: 'alice', projectId: 'p-1', tenantId: 't-1' };
      const res = await failure({ toolName: 'jira', context, errorSignature: 'http-502', classification: 'INTERMITTENT' }).expect(200);
      expect(res.body).toMatchObject({
        reason: 'CLASSIFIED_BY_CHECKER',
        cooldown: { scope: 'PROJECT', scopeId: 'p-1' },
        retryAt: '2026-05-23T16:00:00.000Z',
      });
      t.clock.advance(31_000); // past the new PROJECT entry's 30 s
      const next = await failure({ toolName: 'jira', context, errorSignature: 'http-502' }).expect(200);
      expect(next.body).toMatchObject({ reason: 'IN_COOLDOWN', retryAt: '2026-05-23T16:00:00.000Z' });
    });

    it('the 200-entry cap (D7) never escapes the failure path as a 409: the answer comes without a cooldown, hits kept', async () => {
      const records = t.connection.db!.collection('tool_health');
      await dispatcher
        .post('/v1/cooldowns', {
          scope: 'PROJECT',
          scopeId: 'p-1',
          toolName: 'jira',
          errorSignature: 's-0',
          classification: 'INTERMITTENT',
          durationMs: 3600_000,
        })
        .expect(200);
      const template = (await records.findOne({ scope: 'PROJECT' }))!.cooldowns[0];
      const full = Array.from({ length: 200 }, (_, i) => ({ ...template, errorSignature: `s-${i}` }));
      // By hand, so moving the version as every writer of a document must (D3): the instance that
      // wrote the entry builds its next write on what it kept until the version moves (P354).
      await records.updateOne({ scope: 'PROJECT' }, { $set: { cooldowns: full }, $inc: { version: 1 } });

      const context = { userId: 'alice', projectId: 'p-1' };
      const res = await failure({ toolName: 'jira', context, errorSignature: 's-5', classification: 'TECHNICALLY_BROKEN' }).expect(200);
      expect(res.body).toMatchObject({ spawn: false, reason: 'CLASSIFIED_BY_CHECKER' });
      const fresh = await failure({ toolName: 'jira', context, errorSignature: 'brand-new', classification: 'INTERMITTENT' }).expect(200);
      expect(fresh.body).toMatchObject({ spawn: false, reason: 'CLASSIFIED_BY_CHECKER', cooldown: null });
      await flush();
      const doc = await entry('PROJECT', 'p-1', 'jira');
      expect(doc.cooldowns).toHaveLength(200);
      expect(doc.cooldowns.find((c: { errorSignature: string }) => c.errorSignature === 's-5').hits).toBe(1);
    });
  });

  describe('issue 13: a checker-classified failure inside its active cooldown', () => {
    // Its own app with no timed flush, so any write seen while the reports run is theirs.
    let quiet: TestApp;
    beforeAll(async () => {
      quiet = await createTestApp({ env: { BOOKKEEPING_FLUSH_MS: '60000' } });
    });
    afterAll(() => quiet.close());

    it('performs no document write and counts every hit exactly', async () => {
      const report = () =>
        quiet.http
          .post('/v1/outcomes/failure')
          .set('x-api-key', KEYS.dispatcher)
          .send({
            toolName: 'jira',
            code: 'BACKEND_FAILED',
            context: { userId: 'alice', projectId: 'p-1' },
            errorSignature: 'http-403',
            classification: 'USER_PERMISSION',
          })
          .expect(200);
      await report();
      const before = await entry('USER', 'alice', 'jira');

      const writes: string[] = [];
      const client = quiet.connection.getClient();
      const listener = (e: CommandStartedEvent) => {
        if (['insert', 'update', 'delete', 'findAndModify'].includes(e.commandName) && e.command[e.commandName] === 'tool_health')
          writes.push(e.commandName);
      };
      client.on('commandStarted', listener);
      let answers: { body: { reason: string; spawn: boolean; cooldown: object } }[];
      try {
        answers = await Promise.all(Array.from({ length: 64 }, report));
      } finally {
        client.off('commandStarted', listener);
      }
      expect(writes).toEqual([]);
      expect(answers.every((a) => a.body.reason === 'CLASSIFIED_BY_CHECKER' && a.body.spawn === false)).toBe(true);
      expect(answers[0].body.cooldown).toMatchObject({ scope: 'USER', scopeId: 'alice', userId: 'alice' });
      await quiet.app.get(BookkeepingBuffer).flush();
      const after = await entry('USER', 'alice', 'jira');
      expect(after.updatedAt).toBe(before.updatedAt);
      expect(after.cooldowns[0].hits).toBe(64);
    });
  });
});
