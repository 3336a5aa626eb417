import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HealthEventType } from '../src/domain/health-events';
import { MaintenanceService } from '../src/features/maintenance/maintenance.service';
import { settledEventLog } from './support/event-log';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 16: maintenance windows on the real database — scheduled (upcoming), in force (annotation,
 * no spawn, success does not end it), ended (the stored evidence applies again, events), cancelled,
 * a DST night in Europe/Berlin, and a second instance picking up a window through its cache.
 */
const TOOL = 'jira_search';
const CONTEXT = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
const FAILURE = { toolName: TOOL, context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-502' };
const at = (hhmm: string, day = '2026-05-23') => `${day}T${hhmm}:00.000Z`;

describe('maintenance windows (issue 16)', () => {
  let t: TestApp;
  let service: MaintenanceService;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' } });
    service = t.app.get(MaintenanceService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set(at('14:00'));
  });

  const schedule = (body: Record<string, unknown>) =>
    t.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({ scope: 'GLOBAL', toolName: TOOL, reason: 'Jira upgrade', ...body });
  const failure = (extra: Record<string, unknown> = {}) =>
    t.http
      .post('/v1/outcomes/failure')
      .set('x-api-key', KEYS.dispatcher)
      .send({ ...FAILURE, ...extra })
      .expect(200);
  const success = () =>
    t.http.post('/v1/outcomes/success').set('x-api-key', KEYS.dispatcher).send({ toolName: TOOL, context: CONTEXT }).expect(200);
  const lookup = async () =>
    (
      await t.http
        .post('/v1/availability/lookup')
        .set('x-api-key', KEYS.dispatcher)
        .send({ toolNames: [TOOL], context: CONTEXT })
        .expect(200)
    ).body[0];
  const annotate = async (timeZone = 'Europe/Berlin') =>
    (
      await t.http
        .post('/v1/manifest/annotate')
        .set('x-api-key', KEYS.dispatcher)
        .send({ tools: [{ name: TOOL, description: 'Search Jira issues.' }], context: CONTEXT, timeZone })
        .expect(200)
    ).body.tools[0];
  const events = () => settledEventLog(t);
  const maintenanceEvents = async () => (await events()).filter((e) => e.type.startsWith('MAINTENANCE_'));

  it('a window scheduled in the future is not in force, but lookups and the annotation show it coming', async () => {
    const created = await schedule({ from: at('16:00'), until: at('18:00') }).expect(201);
    expect(created.body).toMatchObject({
      scope: 'GLOBAL',
      scopeId: null,
      toolName: TOOL,
      phase: 'UPCOMING',
      by: 'admin:admin',
      reason: 'Jira upgrade',
    });

    const listed = await t.http.get('/v1/maintenance-windows').set('x-api-key', KEYS.audit).expect(200);
    expect(listed.body.map((w: { id: string }) => w.id)).toEqual([created.body.id]);

    const effective = await lookup();
    expect(effective).toMatchObject({
      status: 'OK',
      reason: 'DEFAULT_OK',
      maintenance: { inForce: null, upcoming: { id: created.body.id, phase: 'UPCOMING' } },
    });
    const annotated = await annotate();
    expect(annotated).toMatchObject({
      status: 'OK',
      doNotCall: false,
      suffix: 'maintenance planned 18:00–20:00',
      description: 'Search Jira issues. (maintenance planned 18:00–20:00)',
    });

    const answer = await failure();
    expect(answer.body).toMatchObject({ spawn: true, reason: 'ELIGIBLE' });
    expect(await maintenanceEvents()).toEqual([]);
    expect(await service.emitDueEvents()).toBe(0);
  });

  it('a window beyond the lookahead is not shown', async () => {
    await schedule({ from: at('16:00', '2026-05-25'), until: at('18:00', '2026-05-25') }).expect(201);
    expect((await lookup()).maintenance).toBeNull();
    expect((await annotate()).suffix).toBeNull();
  });

  it('in force: DOWN until its end, "under maintenance" in the annotation, failures never spawn, a success does not end it', async () => {
    const created = await schedule({ from: at('16:00'), until: at('18:00') }).expect(201);
    t.clock.set(at('16:30'));

    const effective = await lookup();
    expect(effective).toMatchObject({
      status: 'DOWN',
      reason: 'MAINTENANCE',
      retesting: false,
      trace: { reason: 'MAINTENANCE', matched: { scope: 'GLOBAL', by: 'admin:admin', until: at('18:00') } },
    });
    expect(effective.maintenance.inForce.id).toBe(created.body.id);
    const annotated = await annotate();
    expect(annotated).toMatchObject({ status: 'DOWN', doNotCall: true, suffix: 'under maintenance — expected back at 20:00' });

    const answer = await failure();
    expect(answer.body).toMatchObject({
      spawn: false,
      reason: 'UNDER_MAINTENANCE',
      reflectError: true,
      retryAt: at('18:00'),
      retryAfterSeconds: 5400,
      status: 'DOWN',
      cooldown: null,
      widerEvidence: null,
    });
    // Even a checker-classified error sets no cooldown: the window explains it.
    const classified = await failure({ errorSignature: 'http-403', classification: 'USER_PERMISSION' });
    expect(classified.body).toMatchObject({ spawn: false, reason: 'UNDER_MAINTENANCE', cooldown: null });
    expect(await t.connection.db!.collection('tool_health').countDocuments()).toBe(0);

    const ok = await success();
    expect(ok.body).toEqual({ status: 'DOWN', changed: [] });
    expect((await lookup()).reason).toBe('MAINTENANCE');

    expect(await service.emitDueEvents()).toBe(1);
    const started = await maintenanceEvents();
    expect(started).toEqual([
      expect.objectContaining({
        type: HealthEventType.MAINTENANCE_STARTED,
        status: 'DOWN',
        payload: expect.objectContaining({ windowId: created.body.id, until: at('18:00') }),
      }),
    ]);
    expect(await service.emitDueEvents()).toBe(0);
  });

  it('ended: hands back to the evidence underneath, and its start and end are events', async () => {
    const created = await schedule({ from: at('16:00'), until: at('18:00') }).expect(201);
    t.clock.set(at('16:10'));
    // Something stored meanwhile: the system saw the tool intermittent (GLOBAL).
    await t.http
      .post('/v1/health/mark-intermittent')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: TOOL, source: 'gateway' })
      .expect(200);
    const during = await lookup();
    expect(during).toMatchObject({
      status: 'DOWN',
      reason: 'MAINTENANCE',
      shadowed: [expect.objectContaining({ scope: 'GLOBAL', status: 'DEGRADED' })],
    });
    expect(await service.emitDueEvents()).toBe(1);

    t.clock.set(at('18:00'));
    const after = await lookup();
    expect(after).toMatchObject({ status: 'DEGRADED', reason: 'LIVE_PROBLEM', maintenance: null });
    expect((await annotate()).suffix).toMatch(/^intermittent — last failure \d+ min ago, retry tolerated$/);
    expect((await failure()).body.reason).not.toBe('UNDER_MAINTENANCE');

    expect(await service.emitDueEvents()).toBe(1);
    const types = (await maintenanceEvents()).map((e) => [e.type, e.status]);
    expect(types).toEqual([
      [HealthEventType.MAINTENANCE_STARTED, 'DOWN'],
      [HealthEventType.MAINTENANCE_ENDED, 'DEGRADED'],
    ]);
    expect(await service.emitDueEvents()).toBe(0);
    const gql = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.audit)
      .send({
        query: '{ healthEvents(first: 50) { edges { node { type status payload { ... on MaintenancePayload { windowId until } } } } } }',
      })
      .expect(200);
    expect(
      gql.body.data.healthEvents.edges
        .map((e: { node: { type: string } }) => e.node)
        .filter((n: { type: string }) => n.type.startsWith('MAINTENANCE')),
    ).toEqual([
      { type: 'MAINTENANCE_STARTED', status: 'DOWN', payload: { windowId: created.body.id, until: at('18:00') } },
      { type: 'MAINTENANCE_ENDED', status: 'DEGRADED', payload: { windowId: created.body.id, until: at('18:00') } },
    ]);
    const listed = await t.http.get('/v1/maintenance-windows?includeEnded=true').set('x-api-key', KEYS.admin).expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, phase: 'ENDED' })]);
    expect((await t.http.get('/v1/maintenance-windows').set('x-api-key', KEYS.admin).expect(200)).body).toEqual([]);
    // An ended window is history.
    await t.http
      .patch(`/v1/maintenance-windows/${created.body.id}`)
      .set('x-api-key', KEYS.admin)
      .send({ until: at('20:00') })
      .expect(409);
  });

  it('a window that starts and ends between two ticks still gets both events', async () => {
    await schedule({ from: at('14:10'), until: at('14:20') }).expect(201);
    t.clock.set(at('15:00'));
    expect(await service.emitDueEvents()).toBe(2);
    expect((await maintenanceEvents()).map((e) => e.type)).toEqual([
      HealthEventType.MAINTENANCE_STARTED,
      HealthEventType.MAINTENANCE_ENDED,
    ]);
  });

  it('cancelled: one not yet begun never starts; one in force ends at once, with its end event', async () => {
    const coming = await schedule({ from: at('16:00'), until: at('18:00') }).expect(201);
    const cancelled = await t.http.delete(`/v1/maintenance-windows/${coming.body.id}`).set('x-api-key', KEYS.admin).expect(200);
    expect(cancelled.body).toMatchObject({ phase: 'CANCELLED', cancelledBy: 'admin:admin' });
    t.clock.set(at('16:30'));
    expect((await lookup()).status).toBe('OK');
    expect(await service.emitDueEvents()).toBe(0);
    await t.http.delete(`/v1/maintenance-windows/${coming.body.id}`).set('x-api-key', KEYS.admin).expect(409);

    const running = await schedule({ scope: 'TENANT', scopeId: 'acme', from: at('16:00'), until: at('19:00') }).expect(201);
    expect((await lookup()).reason).toBe('MAINTENANCE');
    await t.http.delete(`/v1/maintenance-windows/${running.body.id}`).set('x-api-key', KEYS.admin).expect(200);
    expect((await lookup()).status).toBe('OK');
    const ended = await maintenanceEvents();
    expect(ended.map((e) => [e.type, e.payload.windowId])).toEqual([
      [HealthEventType.MAINTENANCE_STARTED, running.body.id],
      [HealthEventType.MAINTENANCE_ENDED, running.body.id],
    ]);
    expect(ended[1].payload.cancelledAt).toBe(at('16:30'));
  });

  it('changes: a coming window moves, a running one only ends differently; bad input is a 400 naming the field', async () => {
    const created = await schedule({ from: at('16:00'), until: at('18:00') }).expect(201);
    const moved = await t.http
      .patch(`/v1/maintenance-windows/${created.body.id}`)
      .set('x-api-key', KEYS.admin)
      .send({ from: at('15:00') })
      .expect(200);
    expect(moved.body).toMatchObject({ from: at('15:00'), until: at('18:00') });
    // null is "not given" (P24), as everywhere else.
    const same = await t.http
      .patch(`/v1/maintenance-windows/${created.body.id}`)
      .set('x-api-key', KEYS.admin)
      .send({ from: null, until: null, reason: null })
      .expect(200);
    expect(same.body).toMatchObject({ from: at('15:00'), until: at('18:00'), reason: 'Jira upgrade' });
    t.clock.set(at('15:30'));
    expect((await annotate()).suffix).toBe('under maintenance — expected back at 20:00');
    await t.http
      .patch(`/v1/maintenance-windows/${created.body.id}`)
      .set('x-api-key', KEYS.admin)
      .send({ until: at('19:00') })
      .expect(200);
    expect((await annotate()).suffix).toBe('under maintenance — expected back at 21:00');
    const refused = await t.http
      .patch(`/v1/maintenance-windows/${created.body.id}`)
      .set('x-api-key', KEYS.admin)
      .send({ from: at('15:15') })
      .expect(409);
    expect(refused.body.error).toBe('CONFLICT');

    const bad = await schedule({ from: at('18:00'), until: at('17:00') }).expect(400);
    expect(bad.body).toMatchObject({ error: 'INVALID_ARGUMENT', field: 'until' });
    expect((await schedule({ scope: 'TENANT', from: at('18:00'), until: at('19:00') }).expect(400)).body.field).toBe('scopeId');
    expect((await schedule({ from: 'tomorrow', until: at('19:00') }).expect(400)).body.field).toBe('from');
    await t.http.patch('/v1/maintenance-windows/no-such-window').set('x-api-key', KEYS.admin).send({ reason: 'x' }).expect(404);
    expect(await t.connection.db!.collection('maintenance_windows').countDocuments()).toBe(1);
  });

  it('renders a DST night in Europe/Berlin: the repeated 02:30 carries its offset', async () => {
    // 2026-10-25: 03:00 CEST falls back to 02:00 CET at 01:00 UTC. Now 02:10 CEST.
    t.clock.set('2026-10-25T00:10:00.000Z');
    await schedule({ from: '2026-10-25T00:00:00.000Z', until: '2026-10-25T01:30:00.000Z' }).expect(201);
    expect((await annotate('Europe/Berlin')).suffix).toBe('under maintenance — expected back at 02:30 (UTC+1)');
    expect((await annotate('UTC')).suffix).toBe('under maintenance — expected back at 01:30');
    // A coming window whose start and end both fall in the repeated hour: each carries its offset.
    await schedule({ toolName: 'confluence_read', from: '2026-10-25T00:40:00.000Z', until: '2026-10-25T01:40:00.000Z' }).expect(201);
    const coming = await t.http
      .post('/v1/manifest/annotate')
      .set('x-api-key', KEYS.dispatcher)
      .send({ tools: [{ name: 'confluence_read', description: 'Read a page.' }], context: CONTEXT, timeZone: 'Europe/Berlin' })
      .expect(200);
    expect(coming.body.tools[0].suffix).toBe('maintenance planned 02:40 (UTC+2)–02:40 (UTC+1)');
  });

  describe('explain names the windows (P103)', () => {
    const explain = async (body: Record<string, unknown> = {}) =>
      (
        await t.http
          .post('/v1/manifest/explain')
          .set('x-api-key', KEYS.dispatcher)
          .send({ toolName: TOOL, context: CONTEXT, registryKnows: true, timeZone: 'Europe/Berlin', ...body })
          .expect(200)
      ).body;

    it('a coming window within the lookahead, then the window in force, in the annotation wording', async () => {
      await schedule({ from: at('16:00'), until: at('18:00') }).expect(201);
      expect(await explain()).toMatchObject({
        code: null,
        usable: true,
        message: 'Tool jira_search is available (maintenance planned 18:00–20:00).',
      });
      expect((await explain({ registryKnows: false, toolName: 'jira_search' })).message).toBe(
        'Tool jira_search is currently not reachable; do not call it now. Maintenance is planned 18:00–20:00.',
      );
      t.clock.set(at('16:30'));
      expect(await explain()).toMatchObject({
        code: 'BACKEND_FAILED',
        usable: false,
        message:
          'Tool jira_search is under maintenance — expected back at 20:00 (scheduled maintenance at GLOBAL scope); do not call it, plan without it.',
        trace: { reason: 'MAINTENANCE', matched: { scope: 'GLOBAL', by: 'admin:admin', until: at('18:00') } },
      });
      t.clock.set(at('18:00'));
      expect(await explain()).toMatchObject({ code: null, usable: true, message: 'Tool jira_search is available.' });
    });

    it('an end on another local day carries its date; one in the repeated DST hour its offset', async () => {
      await schedule({ scope: 'TENANT', scopeId: 'acme', from: at('13:00'), until: '2026-05-24T01:00:00.000Z' }).expect(201);
      expect((await explain()).message).toBe(
        'Tool jira_search is under maintenance — expected back at 2026-05-24 03:00 (scheduled maintenance at TENANT scope); do not call it, plan without it.',
      );
      t.clock.set('2026-10-25T00:10:00.000Z');
      await schedule({ toolName: 'confluence_read', from: '2026-10-25T00:00:00.000Z', until: '2026-10-25T01:30:00.000Z' }).expect(201);
      expect((await explain({ toolName: 'confluence_read' })).message).toContain('expected back at 02:30 (UTC+1)');
    });
  });

  describe("departed client tools read the session's windows like the cascade (P102)", () => {
    const disconnect = (tools: { name: string; description: string }[]) =>
      t.http
        .post(`/v1/sessions/${CONTEXT.sessionId}/client-disconnected`)
        .set('x-api-key', KEYS.dispatcher)
        .send({ source: 'foot', at: at('14:00'), tools })
        .expect(200);
    const departed = async () =>
      (
        await t.http
          .post('/v1/manifest/annotate')
          .set('x-api-key', KEYS.dispatcher)
          .send({ tools: [], context: CONTEXT, timeZone: 'Europe/Berlin' })
          .expect(200)
      ).body.departed.map((d: { name: string; suffix: string; doNotCall: boolean; reason: { reason: string } }) => [
        d.name,
        d.suffix,
        d.doNotCall,
        d.reason.reason,
      ]);

    it('a SESSION window beats the disconnect while in force, a wider one does not, a coming one is named; ended, the disconnect reads again', async () => {
      await disconnect([
        { name: 'client_file_read', description: 'Read a file on the user machine.' },
        { name: 'client_shell', description: 'Run a command.' },
      ]);
      await schedule({ scope: 'SESSION', scopeId: 's-7', toolName: 'client_file_read', from: at('14:30'), until: at('15:30') }).expect(201);
      await schedule({ scope: 'TENANT', scopeId: 'acme', toolName: 'client_shell', from: at('14:30'), until: at('15:30') }).expect(201);

      expect(await departed()).toEqual([
        ['client_file_read', 'unavailable since 16:00; maintenance planned 16:30–17:30', true, 'LIVE_PROBLEM'],
        ['client_shell', 'unavailable since 16:00; maintenance planned 16:30–17:30', true, 'LIVE_PROBLEM'],
      ]);
      t.clock.set(at('14:45'));
      expect(await departed()).toEqual([
        // Changed with D20: the disconnect beneath the window has no known end, so neither has back-at.
        ['client_file_read', 'under maintenance — end unknown', true, 'MAINTENANCE'],
        ['client_shell', 'unavailable since 16:00', true, 'LIVE_PROBLEM'],
      ]);
      t.clock.set(at('15:30'));
      expect(await departed()).toEqual([
        ['client_file_read', 'unavailable since 16:00', true, 'LIVE_PROBLEM'],
        ['client_shell', 'unavailable since 16:00', true, 'LIVE_PROBLEM'],
      ]);
    });
  });

  it('GraphQL: schedule, list, change and cancel', async () => {
    const gql = (query: string, key: string = KEYS.admin) => t.http.post('/graphql').set('x-api-key', key).send({ query }).expect(200);
    const scheduled = await gql(
      `mutation { scheduleMaintenance(input: {scope: PROJECT, scopeId: "p-1", toolName: "${TOOL}", from: "${at('15:00')}", until: "${at('16:00')}", reason: "index rebuild"}) { id phase by } }`,
    );
    const id = scheduled.body.data.scheduleMaintenance.id;
    expect(scheduled.body.data.scheduleMaintenance).toMatchObject({ phase: 'UPCOMING', by: 'admin:admin' });
    const listed = await gql(`{ maintenanceWindows(filter: {toolName: "${TOOL}"}) { id scope scopeId } }`, KEYS.audit);
    expect(listed.body.data.maintenanceWindows).toEqual([{ id, scope: 'PROJECT', scopeId: 'p-1' }]);
    const changed = await gql(`mutation { changeMaintenance(input: {id: "${id}", until: "${at('17:00')}"}) { until } }`);
    expect(changed.body.data.changeMaintenance.until).toBe(at('17:00'));
    const bad = await gql(`mutation { changeMaintenance(input: {id: "${id}", until: "${at('13:00')}"}) { until } }`);
    expect(bad.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'until' });
    const effective = await gql(
      `{ effectiveHealth(toolName: "${TOOL}", context: {projectId: "p-1"}) { status maintenance { inForce { id } upcoming { id phase } } } }`,
      KEYS.audit,
    );
    expect(effective.body.data.effectiveHealth).toEqual({
      status: 'OK',
      maintenance: { inForce: null, upcoming: { id, phase: 'UPCOMING' } },
    });
    const cancelled = await gql(`mutation { cancelMaintenance(id: "${id}") { phase cancelledBy } }`);
    expect(cancelled.body.data.cancelMaintenance).toEqual({ phase: 'CANCELLED', cancelledBy: 'admin:admin' });
    const forbidden = await gql(`mutation { cancelMaintenance(id: "${id}") { phase } }`, KEYS.audit);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('maintenance windows across instances (P75)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' }, clock: new FakeClock('2026-05-23T14:00:00Z') });
    b = await createTestApp({
      env: { MAINTENANCE_TICK_MS: '0', MAINTENANCE_CACHE_MS: '200' },
      clock: new FakeClock('2026-05-23T14:00:00Z'),
    });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });
  beforeEach(() => resetDatabase(a.connection));

  it('a window scheduled on one instance governs calls on the other within its cache age', async () => {
    const lookupOnB = async () =>
      (await b.http.get(`/v1/tools/${TOOL}/availability?userId=alice`).set('x-api-key', KEYS.dispatcher).expect(200)).body;
    expect((await lookupOnB()).status).toBe('OK'); // B has read the (empty) windows
    await a.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({ scope: 'GLOBAL', toolName: TOOL, from: '2026-05-23T13:00:00Z', until: '2026-05-23T15:00:00Z', reason: 'upgrade' })
      .expect(201);
    const started = Date.now();
    let seen = await lookupOnB();
    while (seen.status !== 'DOWN' && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await lookupOnB();
    }
    expect(seen).toMatchObject({ status: 'DOWN', reason: 'MAINTENANCE' });
    console.log(`maintenance window visible on the second instance after ${Date.now() - started} ms (MAINTENANCE_CACHE_MS=200)`);
    // Both instances emit on their tick; the outbox keeps one start event.
    await Promise.all([a.app.get(MaintenanceService).emitDueEvents(), b.app.get(MaintenanceService).emitDueEvents()]);
    const events = (await settledEventLog(a, [a, b])).filter((e) => e.type === 'MAINTENANCE_STARTED');
    expect(events).toHaveLength(1);
  });
});

/**
 * Issue 16, item 3 of its completion: REST lookup, GraphQL effectiveHealth and the MCP reader
 * tool_health_lookup show one window the same way — in force over a stored entry it shadows,
 * and coming.
 */
describe('one window, three readers: REST, GraphQL, MCP (P75)', () => {
  let t: TestApp;
  let mcp: Client;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' } });
    await t.app.listen(0, '127.0.0.1');
    mcp = new Client({ name: 'maintenance-e2e', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', await t.app.getUrl()), { requestInit: { headers: { 'x-api-key': KEYS.audit } } }),
    );
  });
  afterAll(async () => {
    await mcp.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.reset();
    t.clock.set(at('14:00'));
  });

  const windowFields =
    'id scope scopeId toolName from until reason by phase createdAt updatedAt cancelledAt cancelledBy' +
    ' recurrence { rrule timeZone endedAt skipped overrides { occurrence from until reason } } current { occurrence from until reason } occurrencesAhead { occurrence from until reason } seriesId occurrence';
  const readAll = async () => {
    const rest = (
      await t.http
        .get(`/v1/tools/${TOOL}/availability`)
        .query({ userId: 'alice', projectId: 'p-1', tenantId: 'acme' })
        .set('x-api-key', KEYS.audit)
        .expect(200)
    ).body;
    const gql = await t.http
      .post('/graphql')
      .set('x-api-key', KEYS.audit)
      .send({
        query: `{ effectiveHealth(toolName: "${TOOL}", context: {userId: "alice", projectId: "p-1", tenantId: "acme"}) {
          toolName status retesting reason
          winner { id scope scopeId toolName status since expectedRecoveryAt code lastDiagnosis { classification code note by at } version }
          considered { scope scopeId status retesting pinned }
          trace { reason matched { scope scopeId by since until pinned code } shadowed { scope scopeId status } why }
          backAt blocked
          maintenance { inForce { ${windowFields} } upcoming { ${windowFields} } }
          signals { text } } }`,
      })
      .expect(200);
    expect(gql.body.errors).toBeUndefined();
    const result = (await mcp.callTool({
      name: 'tool_health_lookup',
      arguments: { toolName: TOOL, userId: 'alice', projectId: 'p-1', tenantId: 'acme' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const { summary, ...mcpView } = result.structuredContent as Record<string, unknown>;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(summary).toBe(text);
    return { rest, gql: gql.body.data.effectiveHealth, mcp: mcpView, text };
  };
  const schedule = (body: Record<string, unknown>) =>
    t.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({ scope: 'GLOBAL', toolName: TOOL, reason: 'Jira upgrade', ...body })
      .expect(201);

  it('in force over a stored entry it shadows: the same status, reason, winner, trace and window', async () => {
    const created = await schedule({ scope: 'TENANT', scopeId: 'acme', from: at('14:00'), until: at('16:00') });
    await t.http
      .post('/v1/health/mark-intermittent')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: TOOL, source: 'gateway' })
      .expect(200);
    t.clock.set(at('14:30'));
    const { rest, gql, mcp: viaMcp, text } = await readAll();

    expect(rest).toMatchObject({
      status: 'DOWN',
      reason: 'MAINTENANCE',
      retesting: false,
      winner: { scope: 'TENANT', scopeId: 'acme', expectedRecoveryAt: at('16:00'), version: 0 },
      shadowed: [{ scope: 'GLOBAL', scopeId: null, status: 'DEGRADED' }],
      trace: { reason: 'MAINTENANCE', matched: { scope: 'TENANT', by: 'admin:admin', until: at('16:00') } },
      maintenance: { inForce: { id: created.body.id, phase: 'IN_FORCE' }, upcoming: null },
    });
    expect(viaMcp).toEqual(rest);
    const { winner, considered, shadowed, ...restRest } = rest;
    void shadowed; // GraphQL carries the hidden entries in trace.shadowed only
    const { winner: gqlWinner, considered: gqlConsidered, ...gqlRest } = gql;
    expect(gqlRest).toEqual(restRest);
    expect(gqlConsidered).toEqual(considered);
    expect(gqlWinner).toEqual({
      id: winner.id,
      scope: winner.scope,
      scopeId: winner.scopeId,
      toolName: winner.toolName,
      status: winner.status,
      since: winner.since,
      expectedRecoveryAt: winner.expectedRecoveryAt,
      code: winner.code,
      lastDiagnosis: winner.lastDiagnosis,
      version: winner.version,
    });
    expect(text).toContain('DOWN — a scheduled maintenance window is in force (MAINTENANCE)');
    expect(text).toContain(
      `Decided by: the maintenance window ${created.body.id} at TENANT acme, from ${at('14:00')}, scheduled by admin:admin.`,
    );
    expect(text).not.toContain('Last diagnosis');
    // Changed with D20: the text names back-at (the first instant nothing in reach blocks), not the window's own end.
    expect(text).toContain(`Under maintenance ("Jira upgrade"), expected back at ${at('16:00')}`);
    expect(text).toContain('Wider entries it hides: GLOBAL DEGRADED');
  });

  it('coming: the same window as upcoming, the stored status unchanged', async () => {
    const created = await schedule({ scope: 'PROJECT', scopeId: 'p-1', from: at('18:00'), until: at('19:00') });
    const { rest, gql, mcp: viaMcp, text } = await readAll();
    expect(rest).toMatchObject({
      status: 'OK',
      reason: 'DEFAULT_OK',
      winner: null,
      maintenance: { inForce: null, upcoming: { id: created.body.id, phase: 'UPCOMING', scope: 'PROJECT', scopeId: 'p-1' } },
    });
    expect(viaMcp).toEqual(rest);
    const { shadowed, ...restRest } = rest;
    expect(shadowed).toEqual([]);
    expect(gql).toEqual(restRest);
    expect(text).toContain(`Maintenance planned ${at('18:00')}–${at('19:00')} ("Jira upgrade")`);
  });
});
