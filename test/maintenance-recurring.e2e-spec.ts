import ICAL from 'ical.js';
import { HealthEventType } from '../src/domain/health-events';
import { MaintenanceService } from '../src/features/maintenance/maintenance.service';
import { settledEventLog } from './support/event-log';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * D25 (P190–P194): recurring maintenance windows on the real database — "Jira is down every
 * Saturday 18:00–20:00 Europe/Berlin": the evaluation and the LLM's annotation during an
 * occurrence (summer and winter time), not during a skipped one, a changed one at its own times,
 * an ended series, bad rules refused by field, the .ics feed read by an iCalendar library, the
 * MAINTENANCE_STARTING warning written once with two instances, and the /metrics gauge.
 */
const TOOL = 'jira_search';
const CONTEXT = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
// 2026-05-23 is a Saturday; Berlin is on CEST (UTC+2): 18:00 local = 16:00Z.
const SERIES = {
  scope: 'GLOBAL',
  toolName: TOOL,
  reason: 'Jira backup',
  from: '2026-05-23T16:00:00.000Z',
  until: '2026-05-23T18:00:00.000Z',
  rrule: 'FREQ=WEEKLY;BYDAY=SA',
  timeZone: 'Europe/Berlin',
};

describe('recurring maintenance windows (D25)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  const schedule = (body: Record<string, unknown> = {}) =>
    t.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({ ...SERIES, ...body });
  const annotate = async () =>
    (
      await t.http
        .post('/v1/manifest/annotate')
        .set('x-api-key', KEYS.dispatcher)
        .send({ tools: [{ name: TOOL, description: 'Search Jira issues.' }], context: CONTEXT, timeZone: 'Europe/Berlin' })
        .expect(200)
    ).body.tools[0];
  const failure = async () =>
    (
      await t.http
        .post('/v1/outcomes/failure')
        .set('x-api-key', KEYS.dispatcher)
        .send({ toolName: TOOL, context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-502' })
        .expect(200)
    ).body;
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query, variables }).expect(200);
    return res.body as { data: Record<string, any> | null; errors?: { message: string; extensions: Record<string, unknown> }[] };
  };

  it('each occurrence governs the evaluation as a one-off window: 18:00–20:00 local in summer and in winter', async () => {
    const created = await schedule().expect(201);
    expect(created.body).toMatchObject({
      phase: 'UPCOMING',
      from: SERIES.from,
      until: SERIES.until,
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=SA', timeZone: 'Europe/Berlin', endedAt: null, skipped: [], overrides: [] },
      seriesId: null,
    });

    // The second Saturday, 18:30 CEST: in force, the LLM is told when it is back (local time).
    t.clock.set('2026-05-30T16:30:00.000Z');
    expect(await annotate()).toMatchObject({ status: 'DOWN', doNotCall: true, suffix: 'under maintenance — expected back at 20:00' });
    expect(await failure()).toMatchObject({ spawn: false, reason: 'UNDER_MAINTENANCE', retryAt: '2026-05-30T18:00:00.000Z' });
    const lookup = (await t.http.get(`/v1/tools/${TOOL}/availability?userId=alice`).set('x-api-key', KEYS.dispatcher).expect(200)).body;
    expect(lookup.maintenance.inForce).toMatchObject({
      id: `${created.body.id}@20260530T160000Z`,
      seriesId: created.body.id,
      occurrence: '2026-05-30T16:00:00.000Z',
      from: '2026-05-30T16:00:00.000Z',
      until: '2026-05-30T18:00:00.000Z',
      phase: 'IN_FORCE',
    });
    const listed = (await t.http.get('/v1/maintenance-windows').set('x-api-key', KEYS.audit).expect(200)).body;
    expect(listed).toEqual([expect.objectContaining({ id: created.body.id, phase: 'IN_FORCE' })]);

    // 20:30 CEST: over; the next Saturday is not within the 24 h lookahead.
    t.clock.set('2026-05-30T18:30:00.000Z');
    expect(await annotate()).toMatchObject({ status: 'OK', suffix: null });

    // Winter (CET, UTC+1): 17:30Z is 18:30 local — in force; 16:30Z (17:30 local) is not yet.
    t.clock.set('2026-10-31T16:30:00.000Z');
    expect(await annotate()).toMatchObject({ status: 'OK', suffix: 'maintenance planned 18:00–20:00' });
    t.clock.set('2026-10-31T17:30:00.000Z');
    expect(await annotate()).toMatchObject({ status: 'DOWN', suffix: 'under maintenance — expected back at 20:00' });
  });

  it('a skipped occurrence does not happen; a changed one runs at its own times; both through REST and GraphQL', async () => {
    const { body: series } = await schedule().expect(201);
    const skipped = await t.http
      .post(`/v1/maintenance-windows/${series.id}/skip`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-06-06T16:00:00Z' })
      .expect(200);
    expect(skipped.body.recurrence.skipped).toEqual(['2026-06-06T16:00:00.000Z']);
    const changed = await t.http
      .post(`/v1/maintenance-windows/${series.id}/occurrence`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-06-13T16:00:00Z', until: '2026-06-13T19:00:00Z', reason: 'Jira backup and reindex' })
      .expect(200);
    expect(changed.body.recurrence.overrides).toEqual([
      {
        occurrence: '2026-06-13T16:00:00.000Z',
        from: '2026-06-13T16:00:00.000Z',
        until: '2026-06-13T19:00:00.000Z',
        reason: 'Jira backup and reindex',
      },
    ]);

    t.clock.set('2026-06-06T16:30:00.000Z');
    expect(await annotate()).toMatchObject({ status: 'OK', suffix: null });
    expect((await failure()).reason).not.toBe('UNDER_MAINTENANCE');

    t.clock.set('2026-06-13T18:30:00.000Z'); // 20:30 CEST: the changed occurrence runs to 21:00
    expect(await annotate()).toMatchObject({ status: 'DOWN', suffix: 'under maintenance — expected back at 21:00' });

    // GraphQL: skip the next one, then end the series before the one after.
    const viaGql = await gql(
      `mutation($id: ID!) { skipMaintenanceOccurrence(input: { id: $id, occurrence: "2026-06-20T16:00:00Z" }) { recurrence { skipped } } }`,
      { id: series.id },
    );
    expect(viaGql.data?.skipMaintenanceOccurrence.recurrence.skipped).toEqual(['2026-06-06T16:00:00.000Z', '2026-06-20T16:00:00.000Z']);
    const ended = await gql(
      `mutation($id: ID!) { endMaintenanceSeries(input: { id: $id, at: "2026-06-21T00:00:00Z" }) { phase recurrence { endedAt } } }`,
      { id: series.id },
    );
    expect(ended.data?.endMaintenanceSeries).toEqual({ phase: 'IN_FORCE', recurrence: { endedAt: '2026-06-21T00:00:00.000Z' } });
    t.clock.set('2026-06-27T16:30:00.000Z');
    expect(await annotate()).toMatchObject({ status: 'OK', suffix: null });
    const after = (await t.http.get('/v1/maintenance-windows?includeEnded=true').set('x-api-key', KEYS.audit).expect(200)).body;
    expect(after).toEqual([expect.objectContaining({ id: series.id, phase: 'ENDED' })]);
    // An ended series takes no more changes.
    await t.http.post(`/v1/maintenance-windows/${series.id}/end`).set('x-api-key', KEYS.admin).send({}).expect(409);
  });

  it('a read shows the occurrence in force or the next one, never a past one, over REST and GraphQL', async () => {
    const { body: created } = await schedule().expect(201);
    expect(created.current).toEqual({
      occurrence: '2026-05-23T16:00:00.000Z',
      from: '2026-05-23T16:00:00.000Z',
      until: '2026-05-23T18:00:00.000Z',
      reason: 'Jira backup',
    });
    const read = async () =>
      (await t.http.get(`/v1/maintenance-windows?toolName=${TOOL}`).set('x-api-key', KEYS.audit).expect(200)).body.find(
        (w: { id: string }) => w.id === created.id,
      );
    t.clock.set('2026-05-23T17:00:00.000Z');
    expect(await read()).toMatchObject({ phase: 'IN_FORCE', current: { from: '2026-05-23T16:00:00.000Z' } });
    // The first occurrence is over: the series is coming again, at the next Saturday's times.
    t.clock.set('2026-05-23T18:30:00.000Z');
    expect(await read()).toMatchObject({
      phase: 'UPCOMING',
      from: '2026-05-23T16:00:00.000Z', // the series' first occurrence, as stored
      current: { occurrence: '2026-05-30T16:00:00.000Z', from: '2026-05-30T16:00:00.000Z', until: '2026-05-30T18:00:00.000Z' },
    });
    // A skipped occurrence is passed over; a changed one shows its own times and reason.
    await t.http
      .post(`/v1/maintenance-windows/${created.id}/skip`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-05-30T16:00:00Z' })
      .expect(200);
    await t.http
      .post(`/v1/maintenance-windows/${created.id}/occurrence`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-06-06T16:00:00Z', from: '2026-06-06T15:00:00Z', reason: 'Jira upgrade' })
      .expect(200);
    const viaGql = await gql(`{ maintenanceWindows(filter: { toolName: "${TOOL}" }) { phase current { occurrence from until reason } } }`);
    expect(viaGql.data?.maintenanceWindows[0]).toEqual({
      phase: 'UPCOMING',
      current: {
        occurrence: '2026-06-06T16:00:00.000Z',
        from: '2026-06-06T15:00:00.000Z',
        until: '2026-06-06T18:00:00.000Z',
        reason: 'Jira upgrade',
      },
    });
    const { body: oneOff } = await schedule({
      toolName: 'confluence_read',
      rrule: undefined,
      timeZone: undefined,
      from: '2026-05-24T10:00:00Z',
      until: '2026-05-24T11:00:00Z',
    }).expect(201);
    expect(oneOff.current).toBeNull();
  });

  it('bad rules, zones and occurrences are a 400 naming the field, never a 500', async () => {
    const field = async (body: Record<string, unknown>) => (await schedule(body).expect(400)).body.field;
    expect(await field({ rrule: 'FREQ=WEEKLY;INTERVAL=-1' })).toBe('rrule');
    expect(await field({ rrule: 'FREQ=SOMETIMES' })).toBe('rrule');
    expect(await field({ rrule: 'not a rule' })).toBe('rrule');
    expect(await field({ rrule: 42 })).toBe('rrule');
    expect(await field({ timeZone: 'Europe/Atlantis' })).toBe('timeZone');
    expect(await field({ timeZone: null })).toBe('timeZone');
    expect(await field({ rrule: 'FREQ=WEEKLY;BYDAY=SU' })).toBe('from');
    const { body: series } = await schedule().expect(201);
    const notAStart = await t.http
      .post(`/v1/maintenance-windows/${series.id}/skip`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-05-31T16:00:00Z' })
      .expect(400);
    expect(notAStart.body).toMatchObject({ error: 'INVALID_ARGUMENT', field: 'occurrence' });
    const missing = await t.http.post(`/v1/maintenance-windows/${series.id}/skip`).set('x-api-key', KEYS.admin).send({}).expect(400);
    expect(missing.body.field).toBe('occurrence');
    const { body: oneOff } = await schedule({ rrule: null, timeZone: null }).expect(201);
    expect(oneOff.recurrence).toBeNull();
    await t.http
      .post(`/v1/maintenance-windows/${oneOff.id}/skip`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-05-23T16:00:00Z' })
      .expect(409);
    const gqlBad = await gql(
      `mutation { scheduleMaintenance(input: { scope: GLOBAL, toolName: "${TOOL}", from: "2026-05-23T16:00:00Z", until: "2026-05-23T18:00:00Z", reason: "r", rrule: "FREQ=WEEKLY", timeZone: "Nowhere/Land" }) { id } }`,
    );
    expect(gqlBad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'timeZone' });
  });

  it('GET /v1/maintenance-windows.ics lists the coming occurrences for calendar apps (read keys)', async () => {
    const { body: series } = await schedule().expect(201);
    await t.http
      .post(`/v1/maintenance-windows/${series.id}/skip`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-05-30T16:00:00Z' })
      .expect(200);
    await t.http
      .post(`/v1/maintenance-windows/${series.id}/occurrence`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-06-06T16:00:00Z', from: '2026-06-06T15:00:00Z' })
      .expect(200);
    await schedule({
      toolName: 'confluence_read',
      rrule: null,
      timeZone: null,
      from: '2026-05-23T15:00:00Z',
      reason: 'Confluence: move, then; reindex',
    }).expect(201);

    const res = await t.http.get('/v1/maintenance-windows.ics').set('x-api-key', KEYS.audit).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    const calendar = new ICAL.Component(ICAL.parse(res.text));
    const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    const rows = events.map((e) => [e.summary, e.startDate.toJSDate().toISOString(), e.endDate.toJSDate().toISOString(), e.description]);
    // 60 days from Saturday 2026-05-23: nine Saturdays, one skipped, plus the one-off window.
    expect(rows.slice(0, 4)).toEqual([
      [
        'confluence_read under maintenance (GLOBAL)',
        '2026-05-23T15:00:00.000Z',
        '2026-05-23T18:00:00.000Z',
        'Confluence: move, then; reindex',
      ],
      [`${TOOL} under maintenance (GLOBAL)`, '2026-05-23T16:00:00.000Z', '2026-05-23T18:00:00.000Z', 'Jira backup'],
      [`${TOOL} under maintenance (GLOBAL)`, '2026-06-06T15:00:00.000Z', '2026-06-06T18:00:00.000Z', 'Jira backup'],
      [`${TOOL} under maintenance (GLOBAL)`, '2026-06-13T16:00:00.000Z', '2026-06-13T18:00:00.000Z', 'Jira backup'],
    ]);
    expect(rows).toHaveLength(1 + 9 - 1);
    expect(events.map((e) => e.uid)).toContain(`${series.id}@20260606T160000Z@tool-availability`);
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);

    await t.http.get('/v1/maintenance-windows.ics').set('x-api-key', KEYS.dispatcher).expect(403);
    await t.http.get('/v1/maintenance-windows.ics').expect(401);
  });

  it('/metrics: the gauge counts the windows in force', async () => {
    await schedule().expect(201);
    await schedule({
      toolName: 'confluence_read',
      rrule: null,
      timeZone: null,
      from: '2026-05-30T15:00:00Z',
      until: '2026-05-30T17:00:00Z',
    }).expect(201);
    const gauge = async () => {
      const text = (await t.http.get('/metrics').set('x-api-key', KEYS.audit).expect(200)).text;
      return Number(/^tas_maintenance_windows_in_force (\d+)$/m.exec(text)?.[1]);
    };
    expect(await gauge()).toBe(0);
    t.clock.set('2026-05-23T16:30:00.000Z');
    expect(await gauge()).toBe(1);
    t.clock.set('2026-05-30T16:30:00.000Z');
    expect(await gauge()).toBe(2);
    t.clock.set('2026-05-30T17:30:00.000Z');
    expect(await gauge()).toBe(1);
  });
});

describe('MAINTENANCE_STARTING (P192): once per occurrence, with two instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' }, clock: new FakeClock('2026-05-23T14:00:00Z') });
    b = await createTestApp({
      env: { MAINTENANCE_TICK_MS: '0', MAINTENANCE_WARNING_LEAD_MINUTES: '15' },
      clock: new FakeClock('2026-05-23T14:00:00Z'),
    });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });
  beforeEach(() => resetDatabase(a.connection));

  const tickBoth = async (iso: string) => {
    a.clock.set(iso);
    b.clock.set(iso);
    const written = await Promise.all([a.app.get(MaintenanceService).emitDueEvents(), b.app.get(MaintenanceService).emitDueEvents()]);
    return written;
  };
  const readLog = () => settledEventLog(a, [a, b]);
  const maintenanceEvents = async () =>
    (await readLog()).filter((e) => e.type.startsWith('MAINTENANCE_')).map((e) => `${e.type} ${e.payload.windowId} ${e.payload.from}`);

  it('a series and a one-off window each warn once 15 minutes before each start, then start and end', async () => {
    const { body: series } = await a.http.post('/v1/maintenance-windows').set('x-api-key', KEYS.admin).send(SERIES).expect(201);
    const { body: oneOff } = await a.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({
        ...SERIES,
        toolName: 'confluence_read',
        rrule: undefined,
        timeZone: undefined,
        from: '2026-05-23T16:10:00Z',
        until: '2026-05-23T16:40:00Z',
      })
      .expect(201);
    const occurrence = `${series.id}@20260523T160000Z`;

    await tickBoth('2026-05-23T15:44:00Z');
    expect(await maintenanceEvents()).toEqual([]);
    await tickBoth('2026-05-23T15:46:00Z');
    await tickBoth('2026-05-23T15:50:00Z');
    await tickBoth('2026-05-23T15:56:00Z');
    expect(await maintenanceEvents()).toEqual([
      `MAINTENANCE_STARTING ${occurrence} 2026-05-23T16:00:00.000Z`,
      `MAINTENANCE_STARTING ${oneOff.id} 2026-05-23T16:10:00.000Z`,
    ]);
    await tickBoth('2026-05-23T16:20:00Z');
    await tickBoth('2026-05-23T16:45:00Z');
    await tickBoth('2026-05-23T18:00:00Z');
    await tickBoth('2026-05-23T18:05:00Z');
    // The next Saturday warns again, for its own occurrence.
    await tickBoth('2026-05-30T15:50:00Z');
    await tickBoth('2026-05-30T15:55:00Z');
    const next = `${series.id}@20260530T160000Z`;
    expect(await maintenanceEvents()).toEqual([
      `MAINTENANCE_STARTING ${occurrence} 2026-05-23T16:00:00.000Z`,
      `MAINTENANCE_STARTING ${oneOff.id} 2026-05-23T16:10:00.000Z`,
      `MAINTENANCE_STARTED ${occurrence} 2026-05-23T16:00:00.000Z`,
      `MAINTENANCE_STARTED ${oneOff.id} 2026-05-23T16:10:00.000Z`,
      `MAINTENANCE_ENDED ${oneOff.id} 2026-05-23T16:10:00.000Z`,
      `MAINTENANCE_ENDED ${occurrence} 2026-05-23T16:00:00.000Z`,
      `MAINTENANCE_STARTING ${next} 2026-05-30T16:00:00.000Z`,
    ]);
    const warning = (await readLog()).find((e) => e.type === HealthEventType.MAINTENANCE_STARTING);
    expect(warning).toMatchObject({ id: `maintenance:${occurrence}:MAINTENANCE_STARTING`, toolName: TOOL, status: 'OK' });
  });

  it("an occurrence moved earlier, even before the series' first start, is warned and started at its new time", async () => {
    a.clock.set('2026-05-23T14:00:00Z');
    b.clock.set('2026-05-23T14:00:00Z');
    const { body: series } = await a.http.post('/v1/maintenance-windows').set('x-api-key', KEYS.admin).send(SERIES).expect(201);
    // 14:00: the first occurrence (16:00) is moved to start in 3 seconds.
    await a.http
      .post(`/v1/maintenance-windows/${series.id}/occurrence`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-05-23T16:00:00.000Z', from: '2026-05-23T14:00:03.000Z', until: '2026-05-23T15:00:00.000Z' })
      .expect(200);
    await tickBoth('2026-05-23T14:00:01Z');
    const occurrence = `${series.id}@20260523T160000Z`;
    expect(await maintenanceEvents()).toEqual([`MAINTENANCE_STARTING ${occurrence} 2026-05-23T14:00:03.000Z`]);
    await tickBoth('2026-05-23T14:00:04Z');
    await tickBoth('2026-05-23T15:00:01Z');
    expect(await maintenanceEvents()).toEqual([
      `MAINTENANCE_STARTING ${occurrence} 2026-05-23T14:00:03.000Z`,
      `MAINTENANCE_STARTED ${occurrence} 2026-05-23T14:00:03.000Z`,
      `MAINTENANCE_ENDED ${occurrence} 2026-05-23T14:00:03.000Z`,
    ]);
  });

  it('a lead time of 0 writes no warning', async () => {
    const c = await createTestApp({
      env: { MAINTENANCE_TICK_MS: '0', MAINTENANCE_WARNING_LEAD_MINUTES: '0' },
      clock: new FakeClock('2026-05-23T14:00:00Z'),
    });
    try {
      await c.http.post('/v1/maintenance-windows').set('x-api-key', KEYS.admin).send(SERIES).expect(201);
      c.clock.set('2026-05-23T15:55:00Z');
      expect(await c.app.get(MaintenanceService).emitDueEvents()).toBe(0);
      c.clock.set('2026-05-23T16:01:00Z');
      expect(await c.app.get(MaintenanceService).emitDueEvents()).toBe(1);
    } finally {
      await c.close();
    }
  });
});
