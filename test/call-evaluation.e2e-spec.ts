import type { FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { ToolHealthClassification } from '../src/domain/classification';
import { applyCooldown } from '../src/domain/cooldown-policy';
import { newDocument } from '../src/domain/health-entry';
import { Scope } from '../src/domain/scope';
import { BookkeepingBuffer } from '../src/features/outcomes/bookkeeping-buffer.service';
import { EventRelay } from '../src/write-path/event-relay.service';
import { HealthStore } from '../src/write-path/health-store.service';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 24, sequences 1–9 (D20: one evaluation of a call), replayed on the real database through
 * the REST and GraphQL APIs. Each failed on the code before the evaluation (P129–P134).
 */
const TOOL = 'jira';
const T0 = '2026-05-23T14:00:00.000Z';
const MIN = 60_000;
const at = (hhmm: string) => `2026-05-23T${hhmm}:00.000Z`;
const plus = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

describe('one evaluation of a call (issue 24, sequences 1–9)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { BOOKKEEPING_FLUSH_MS: '0', WIDER_EVIDENCE_FLUSH_MS: '0', MAINTENANCE_TICK_MS: '0', MAINTENANCE_CACHE_MS: '0' },
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set(T0);
  });

  const as = (key: string) => ({
    post: (path: string, body: object) => t.http.post(path).set('x-api-key', key).send(body),
    put: (path: string, body: object) => t.http.put(path).set('x-api-key', key).send(body),
    get: (path: string) => t.http.get(path).set('x-api-key', key),
  });
  const dispatcher = as(KEYS.dispatcher);
  const writer = as(KEYS.writer);
  const admin = as(KEYS.admin);
  const audit = as(KEYS.audit);

  const failure = async (context: object, extra: object = {}) =>
    (
      await dispatcher
        .post('/v1/outcomes/failure', { toolName: TOOL, context, code: 'BACKEND_FAILED', errorSignature: 'http-502', ...extra })
        .expect(200)
    ).body;
  const lookup = async (context: object) =>
    (await dispatcher.post('/v1/availability/lookup', { toolNames: [TOOL], context }).expect(200)).body[0];
  const annotate = async (context: object) =>
    (
      await dispatcher
        .post('/v1/manifest/annotate', { tools: [{ name: TOOL, description: 'Search Jira.' }], context, timeZone: 'UTC' })
        .expect(200)
    ).body.tools[0];
  const entry = async (scope: string, scopeId: string | null) => {
    const res = await dispatcher.get(`/v1/entries?scope=${scope}&toolName=${TOOL}${scopeId ? `&scopeId=${scopeId}` : ''}`);
    return res.status === 404 ? null : res.body;
  };
  const window = (scope: string, scopeId: string | null, from: string, until: string) =>
    admin.post('/v1/maintenance-windows', { scope, scopeId, toolName: TOOL, from, until, reason: 'upgrade' }).expect(201);
  const verdict = (body: object) => writer.post('/v1/diagnoses', { toolName: TOOL, note: 'n', by: 'agrajag-1', ...body });
  const setCooldown = (body: object) =>
    dispatcher.post('/v1/cooldowns', { toolName: TOOL, errorSignature: 'http-502', classification: 'INTERMITTENT', ...body });
  async function gql(query: string, variables: Record<string, unknown>): Promise<any> {
    const res = await admin.post('/graphql', { query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  }
  const pin = (key: object, status: string, until: string) =>
    gql('mutation($input: PinToolHealthInput!) { pinToolHealth(input: $input) { id } }', {
      input: { toolName: TOOL, ...key, status, until, reason: 'own backend' },
    });
  const flush = () => t.app.get(BookkeepingBuffer).flush();
  // The relay publishes a write's events within its answer only when quick (P53): drained first, so
  // the page holds every event of the writes before it, also on a loaded machine.
  const cooldownEvents = async () => {
    await t.app.get(EventRelay).drain();
    const page = await audit.get('/v1/events?limit=500').expect(200);
    return (page.body.events as { type: string; payload: Record<string, unknown> }[]).filter((e) => e.type === 'COOLDOWN_SET');
  };

  describe('1. a narrower problem does not switch the maintenance window off for failures', () => {
    it('GLOBAL window, three DEGRADED projects: five users fail → none spawns, nothing is marked, no wider evidence', async () => {
      await window('GLOBAL', null, T0, at('16:00'));
      for (const p of ['p1', 'p2', 'p3']) {
        await dispatcher
          .post('/v1/health/mark-intermittent', { scope: 'PROJECT', scopeId: p, toolName: TOOL, source: 'probe', tenantId: 'acme' })
          .expect(200);
      }
      const answers = [];
      for (let i = 1; i <= 5; i++) {
        answers.push(await failure({ userId: `u${i}`, projectId: `p${(i % 3) + 1}`, tenantId: 'acme' }));
      }
      for (const a of answers) expect(a).toMatchObject({ spawn: false, reason: 'UNDER_MAINTENANCE', cooldown: null, widerEvidence: null });
      expect(answers[0].status).toBe('DEGRADED'); // status and text still follow D4
      await flush();
      for (const p of ['p1', 'p2', 'p3']) expect((await entry('PROJECT', p)).lastFailureAt).toBeNull();
    });

    it("the caller's USER DOWN and a checker INTERMITTENT → no PROJECT cooldown outliving the window", async () => {
      await window('GLOBAL', null, T0, at('14:30'));
      await verdict({ scope: 'USER', scopeId: 'alice', classification: 'USER_SPECIFIC_TECHNICAL' }).expect(200);
      const a = await failure({ userId: 'alice', projectId: 'p1' }, { classification: 'INTERMITTENT' });
      expect(a).toMatchObject({ spawn: false, reason: 'UNDER_MAINTENANCE', cooldown: null });
      expect(await entry('PROJECT', 'p1')).toBeNull();
    });
  });

  describe('2. an OK pin bounds the call', () => {
    it("an acme user is not stopped by the GLOBAL cooldown its tenant's OK pin hides", async () => {
      await verdict({
        scope: 'GLOBAL',
        classification: 'TECHNICALLY_BROKEN',
        errorSignature: 'http-502',
        expectedRecoveryAt: at('16:00'),
      }).expect(200);
      await pin({ scope: 'TENANT', scopeId: 'acme' }, 'OK', at('18:00'));
      const a = await failure({ userId: 'a1', tenantId: 'acme' });
      expect(a).toMatchObject({ spawn: true, reason: 'ELIGIBLE', retryAt: null, cooldown: null });
      await flush();
      expect((await entry('GLOBAL', null)).cooldowns[0].hits).toBe(0);
    });

    // Its own instance: the wider-evidence counts live in memory, and the other sequences move the clock back and forth.
    describe('on a fresh instance', () => {
      let outer: TestApp;
      beforeAll(async () => {
        outer = t;
        t = await createTestApp({ env: { WIDER_EVIDENCE_FLUSH_MS: '0', MAINTENANCE_TICK_MS: '0', MAINTENANCE_CACHE_MS: '0' } });
        await t.reset();
        t.clock.set(T0);
      });
      afterAll(async () => {
        await t.close();
        t = outer;
      });

      it("failures under tenant A's OK pin are no GLOBAL wider evidence for tenant B", async () => {
        await pin({ scope: 'TENANT', scopeId: 'A' }, 'OK', at('18:00'));
        const answers = [];
        for (const [u, p] of [
          ['a1', 'pa1'],
          ['a2', 'pa1'],
          ['a3', 'pa2'],
          ['a4', 'pa2'],
        ]) {
          answers.push(await failure({ userId: u, projectId: p, tenantId: 'A' }));
        }
        const b = await failure({ userId: 'b1', projectId: 'pb1', tenantId: 'B' });
        expect(b.widerEvidence).toBeNull();
        expect(answers.map((a) => a.widerEvidence)).toEqual([null, null, null, null]);
        // A fifth user of tenant A: its TENANT is in reach (the pin's own scope), so it counts there.
        const fifth = await failure({ userId: 'a5', projectId: 'pa3', tenantId: 'A' });
        expect(fifth.widerEvidence).toMatchObject({ scope: 'TENANT', scopeId: 'A', distinctUsers: 5 });
      });
    });
  });

  describe('3. "expected back at" and retryAt name the first instant nothing in reach blocks', () => {
    it('overlapping GLOBAL windows ending 19:17 and 20:47 → back at 20:47', async () => {
      await window('GLOBAL', null, T0, at('19:17'));
      await window('GLOBAL', null, at('14:30'), at('20:47'));
      t.clock.set(at('15:00'));
      expect((await annotate({ userId: 'u' })).suffix).toBe('under maintenance — expected back at 20:47');
      expect((await lookup({ userId: 'u' })).backAt).toBe(at('20:47'));
      expect((await failure({ userId: 'u' })).retryAt).toBe(at('20:47'));
    });

    it('a PROJECT window inside a GLOBAL one → the GLOBAL end', async () => {
      await window('GLOBAL', null, T0, at('18:00'));
      await window('PROJECT', 'p1', T0, at('15:00'));
      t.clock.set(at('14:10'));
      expect((await annotate({ projectId: 'p1' })).suffix).toBe('under maintenance — expected back at 18:00');
    });

    it('a PROJECT DOWN due back in 10 min inside a 2 h window → retryAt is the window end', async () => {
      await window('GLOBAL', null, T0, at('16:00'));
      await dispatcher
        .post('/v1/health/mark-unavailable', {
          scope: 'PROJECT',
          scopeId: 'p1',
          toolName: TOOL,
          code: 'BACKEND_FAILED',
          source: 'probe',
          expectedRecoveryAt: plus(10 * MIN),
        })
        .expect(200);
      const a = await failure({ projectId: 'p1' });
      expect(a).toMatchObject({ spawn: false, retryAt: at('16:00') });
      expect((await annotate({ projectId: 'p1' })).suffix).toBe('currently unavailable — expected back at 16:00');
    });

    it('a 2 h cooldown under a 30 min window → retryAt is the cooldown end', async () => {
      await setCooldown({ scope: 'GLOBAL', durationMs: 120 * MIN }).expect(200);
      await window('GLOBAL', null, T0, at('14:30'));
      expect((await failure({ userId: 'u' })).retryAt).toBe(at('16:00'));
    });

    it('a USER window over a GLOBAL DOWN without estimate → retryAt and back-at unknown', async () => {
      await dispatcher
        .post('/v1/health/mark-unavailable', { scope: 'GLOBAL', toolName: TOOL, code: 'BACKEND_FAILED', source: 'probe' })
        .expect(200);
      await window('USER', 'u', T0, at('14:30'));
      const a = await failure({ userId: 'u' });
      expect(a).toMatchObject({ spawn: false, reason: 'UNDER_MAINTENANCE', retryAt: null, retryAfterSeconds: null });
      expect((await annotate({ userId: 'u' })).suffix).toBe('under maintenance — end unknown');
      expect(await lookup({ userId: 'u' })).toMatchObject({ blocked: true, backAt: null });
    });
  });

  describe('4. "last failure N min ago" stays true during a cooldown', () => {
    it('a failure that meets the INTERMITTENT cooldown still marks the governing entry', async () => {
      await verdict({ scope: 'GLOBAL', classification: 'INTERMITTENT', errorSignature: 'http-502', durationMs: 10 * MIN }).expect(200);
      t.clock.set(plus(5 * MIN));
      expect(await failure({ userId: 'u' })).toMatchObject({ reason: 'IN_COOLDOWN' });
      await flush();
      t.clock.set(plus(6 * MIN));
      expect((await annotate({ userId: 'u' })).suffix).toBe('intermittent — last failure 1 min ago, retry tolerated');
    });
  });

  describe("5. one user's token problem stops nobody else", () => {
    it('a checker USER_SPECIFIC_TECHNICAL is a USER cooldown of the caller; another user is not stopped', async () => {
      const a = await failure({ userId: 'alice' }, { classification: 'USER_SPECIFIC_TECHNICAL' });
      expect(a.cooldown).toEqual({ scope: 'USER', scopeId: 'alice', errorSignature: 'http-502', userId: 'alice' });
      expect(await entry('GLOBAL', null)).toBeNull();
      expect(await failure({ userId: 'bob', tenantId: 'other' })).toMatchObject({ spawn: true, reason: 'ELIGIBLE' });
    });

    it('a caller without userId gets no cooldown, and the answer says so', async () => {
      const a = await failure({ sessionId: 's1' }, { classification: 'USER_SPECIFIC_TECHNICAL' });
      expect(a).toMatchObject({ spawn: false, reason: 'CLASSIFIED_BY_CHECKER', cooldown: null });
      expect(a.why.join('\n')).toMatch(/no cooldown: USER_SPECIFIC_TECHNICAL is one user's problem/);
      expect(await entry('GLOBAL', null)).toBeNull();
    });
  });

  describe("6. a document's tenant is fixed at creation", () => {
    it('a PROJECT document written without a tenant keeps it null and its history when a tenant claims it', async () => {
      await admin.put('/v1/tenants/t-1/settings/history-limit', { historyLimit: 1 }).expect(200);
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        await verdict({ scope: 'PROJECT', scopeId: 'p-9', classification: 'TECHNICALLY_BROKEN', note: `probe ${i}` }).expect(200);
      }
      t.clock.advance(1000);
      await dispatcher
        .post('/v1/health/mark-unavailable', {
          scope: 'PROJECT',
          scopeId: 'p-9',
          toolName: TOOL,
          code: 'BACKEND_FAILED',
          source: 'mcp',
          tenantId: 't-1',
        })
        .expect(200);
      const doc = await entry('PROJECT', 'p-9');
      expect(doc.tenantId).toBeNull();
      expect(doc.history).toHaveLength(4);
    });
  });

  describe("7. every change of a cooldown's end or class is a COOLDOWN_SET", () => {
    it('an explicit shorter duration', async () => {
      await setCooldown({ scope: 'GLOBAL', durationMs: 120 * MIN }).expect(200);
      await setCooldown({ scope: 'GLOBAL', durationMs: 60 * MIN }).expect(200);
      const events = await cooldownEvents();
      expect(events.map((e) => e.payload.nextSpawnAllowedAt)).toEqual([at('16:00'), at('15:00')]);
    });

    it("an admin's window change that moves the end earlier", async () => {
      await setCooldown({ scope: 'GLOBAL', durationMs: 120 * MIN }).expect(200);
      await admin
        .post('/v1/cooldowns/window', { scope: 'GLOBAL', toolName: TOOL, errorSignature: 'http-502', windowMs: 60 * MIN })
        .expect(200);
      const events = await cooldownEvents();
      expect(events.map((e) => e.payload.nextSpawnAllowedAt)).toEqual([at('16:00'), at('15:00')]);
    });

    it('USER_INPUT → USER_PERMISSION while active', async () => {
      await setCooldown({ scope: 'USER', scopeId: 'alice', userId: 'alice', classification: 'USER_INPUT' }).expect(200);
      await setCooldown({ scope: 'USER', scopeId: 'alice', userId: 'alice', classification: 'USER_PERMISSION' }).expect(200);
      const events = await cooldownEvents();
      expect(events.map((e) => e.payload.lastClassification)).toEqual(['USER_INPUT', 'USER_PERMISSION']);
    });
  });

  describe('8. a repeated TECHNICALLY_BROKEN cooldown without estimate climbs from its stored window', () => {
    it("an admin's 3 s window is the base of the next repetition, not the 15 min default", async () => {
      const broken = () => verdict({ scope: 'GLOBAL', classification: 'TECHNICALLY_BROKEN', errorSignature: 'http-502' }).expect(200);
      await broken();
      await admin.post('/v1/cooldowns/window', { scope: 'GLOBAL', toolName: TOOL, errorSignature: 'http-502', windowMs: 3000 }).expect(200);
      t.clock.set(plus(10_000));
      const res = await broken();
      expect(res.body.cooldowns[0]).toMatchObject({ windowMs: 3000, nextSpawnAllowedAt: plus(13_000) });
    });
  });

  describe('9. a full cooldown list does not hide an outage', () => {
    // 200 running cooldowns in one write through the store (200 requests would only measure the machine).
    const fillCooldowns = async () => {
      const key = { scope: Scope.GLOBAL, scopeId: null, toolName: TOOL };
      await t.app.get(HealthStore).write(key, null, (env) => () => {
        let doc = newDocument(key, env.now);
        for (let i = 0; i < 200; i++) {
          doc = applyCooldown(doc, {
            errorSignature: `sig-${i}`,
            userId: null,
            classification: ToolHealthClassification.INTERMITTENT,
            durationMs: 120 * MIN,
            now: env.now,
            graceMs: env.graceMs,
          });
        }
        return doc;
      });
    };
    const RECORD = `mutation ($sig: String!) {
      verdict: recordDiagnosis(input: { scope: GLOBAL, toolName: "${TOOL}", classification: TECHNICALLY_BROKEN, note: "502s", errorSignature: $sig }) { status }
    }`;
    const refusal = (sig: string) => ({
      code: 'COOLDOWN_REFUSED',
      path: ['verdict'],
      message: expect.stringMatching(new RegExp(`No cooldown for ${sig}: the entry holds 200 active cooldowns`)),
    });

    it('a TECHNICALLY_BROKEN verdict with a new signature records DOWN; only the cooldown is refused, and the answer says so', async () => {
      await fillCooldowns();
      const res = await verdict({ scope: 'GLOBAL', classification: 'TECHNICALLY_BROKEN', errorSignature: 'http-new' }).expect(200);
      expect(res.body.status).toBe('DOWN');
      expect(res.headers['tool-health-cooldown-refused']).toMatch(/No cooldown for http-new: the entry holds 200 active cooldowns/);
      const doc = await entry('GLOBAL', null);
      expect(doc.status).toBe('DOWN');
      expect(doc.cooldowns).toHaveLength(200);
      expect((await lookup({ userId: 'u' })).status).toBe('DOWN');
    });

    it('GraphQL says it too: the entry as data, the refusal in extensions.warnings (HTTP and graphql-ws, P150)', async () => {
      await fillCooldowns();
      const http = await t.http
        .post('/graphql')
        .set('x-api-key', KEYS.admin)
        .send({ query: RECORD, variables: { sig: 'http-new' } })
        .expect(200);
      expect(http.body.errors).toBeUndefined();
      expect(http.body.data.verdict.status).toBe('DOWN');
      expect(http.body.extensions.warnings).toEqual([refusal('http-new')]);

      await t.app.listen(0, '127.0.0.1');
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'x-api-key': KEYS.admin },
        retryAttempts: 0,
      });
      try {
        type Result = FormattedExecutionResult<{ verdict: { status: string } }, { warnings?: unknown }>;
        const results: Result[] = [];
        for await (const result of client.iterate<Result['data'], Result['extensions']>({ query: RECORD, variables: { sig: 'ws-new' } }))
          results.push(result);
        expect(results).toHaveLength(1);
        expect(results[0].errors).toBeUndefined();
        expect(results[0].data).toEqual({ verdict: { status: 'DOWN' } });
        expect(results[0].extensions?.warnings).toEqual([refusal('ws-new')]);
      } finally {
        await client.dispose();
      }
      expect((await entry('GLOBAL', null)).cooldowns).toHaveLength(200);
    });

    it('a verdict whose cooldown was set carries no warning', async () => {
      const res = await t.http
        .post('/graphql')
        .set('x-api-key', KEYS.admin)
        .send({ query: RECORD, variables: { sig: 'http-502' } })
        .expect(200);
      expect(res.body.data.verdict.status).toBe('DOWN');
      expect(res.body.extensions?.warnings).toBeUndefined();
    });
  });
});
