import fc from 'fast-check';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  OutcomeTally,
  StatsResolution,
  bucketOf,
  floorTo,
  percentileBucket,
  statsBucketId,
} from '../src/domain/outcome-stats';
import { ToolErrorCode } from '../src/domain/tool-error-code';
import { OutcomeStatsRecorder } from '../src/features/tool-stats/outcome-stats-recorder.service';
import { ToolSignalsService } from '../src/features/tool-stats/tool-signals.service';
import { OutcomeStatsRepository } from '../src/persistence/outcome-stats/outcome-stats.repository';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebhookDispatcher } from '../src/features/webhooks/webhook-dispatcher.service';
import { EventRelay } from '../src/write-path/event-relay.service';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 39: outcome statistics end to end on the e2e database — two instances counting one
 * stream, the flush at shutdown, the signals as callers and the LLM read them, uptime per day.
 */
const ENV = { STATS_FLUSH_MS: '300000', STATS_SIGNAL_REFRESH_MS: '0' };

interface Report {
  tool: string;
  tenant: string | null;
  ok: boolean;
  code: ToolErrorCode;
  durationMs: number | null;
  minute: number;
  instance: 0 | 1;
  batched: boolean;
}

const START = Date.parse('2026-05-23T22:50:00Z'); // the stream crosses an hour and a day

describe('outcome statistics (issue 39)', () => {
  const clock = new FakeClock(new Date(START));
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ env: ENV, clock });
    b = await createTestApp({ env: ENV, clock });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  async function flushAll(): Promise<void> {
    await a.app.get(OutcomeStatsRecorder).flush();
    await b.app.get(OutcomeStatsRecorder).flush();
  }

  beforeEach(async () => {
    await flushAll();
    await a.reset();
    clock.set(new Date(START));
  });

  const body = (r: Pick<Report, 'tool' | 'tenant' | 'ok' | 'code' | 'durationMs'>) => ({
    toolName: r.tool,
    ...(r.tenant ? { context: { tenantId: r.tenant } } : {}),
    ...(r.durationMs !== null ? { durationMs: r.durationMs } : {}),
    ...(r.ok ? {} : { code: r.code, errorSignature: 'http-502' }),
  });

  async function send(
    app: TestApp,
    reports: Pick<Report, 'tool' | 'tenant' | 'ok' | 'code' | 'durationMs'>[],
    batched: boolean,
  ): Promise<void> {
    if (batched) {
      const res = await app.http
        .post('/v1/outcomes/batch')
        .set('x-api-key', KEYS.dispatcher)
        .send({ items: reports.map((r) => ({ outcome: r.ok ? 'success' : 'failure', ...body(r) })) })
        .expect(200);
      expect(res.body.results.map((x: { status: number }) => x.status)).toEqual(reports.map(() => 200));
      return;
    }
    for (const r of reports) {
      await app.http
        .post(r.ok ? '/v1/outcomes/success' : '/v1/outcomes/failure')
        .set('x-api-key', KEYS.dispatcher)
        .send(body(r))
        .expect(200);
    }
  }

  describe('two instances, one stream', () => {
    const report = fc.record<Report>({
      tool: fc.constantFrom('search', 'jira'),
      tenant: fc.constantFrom(null, 'acme', 'globex'),
      ok: fc.boolean(),
      code: fc.constantFrom(...Object.values(ToolErrorCode)),
      durationMs: fc.option(fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 3_600_000 })), { nil: null }),
      minute: fc.integer({ min: 0, max: 75 }),
      instance: fc.constantFrom<0 | 1>(0, 1),
      batched: fc.boolean(),
    });

    it('store exactly the counts of the reports (percentiles within one bucket), whichever instance took each', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(report, { minLength: 1, maxLength: 40 }), async (generated) => {
          await resetDatabase(a.connection);
          const reports = [...generated].sort((x, y) => x.minute - y.minute);
          // Sent in order of time; consecutive reports of one minute and instance go together.
          for (let i = 0; i < reports.length;) {
            const first = reports[i];
            let j = i + 1;
            while (j < reports.length && reports[j].minute === first.minute && reports[j].instance === first.instance && first.batched) j++;
            clock.set(new Date(START + first.minute * MINUTE_MS + 1000));
            await send(first.instance === 0 ? a : b, reports.slice(i, j), first.batched);
            i = j;
          }
          await flushAll();

          // The direct computation: per (tool, tenant or everyone, period), the reports themselves.
          const expected = new Map<string, Report[]>();
          const put = (id: string, r: Report) => expected.set(id, [...(expected.get(id) ?? []), r]);
          for (const r of reports) {
            const at = START + r.minute * MINUTE_MS + 1000;
            for (const tenant of r.tenant ? [null, r.tenant] : [null]) {
              put(statsBucketId(StatsResolution.HOUR, r.tool, tenant, floorTo(at, HOUR_MS)), r);
              if (tenant === null) put(statsBucketId(StatsResolution.DAY, r.tool, null, floorTo(at, DAY_MS)), r);
              put(
                `${statsBucketId(StatsResolution.HOUR, r.tool, tenant, floorTo(at, HOUR_MS))}#${Math.floor((at % HOUR_MS) / MINUTE_MS)}`,
                r,
              );
            }
          }
          const ids = [...new Set([...expected.keys()].map((k) => k.split('#')[0]))];
          const stored = await a.app.get(OutcomeStatsRepository).findByIds(ids, true);
          expect(stored.map((s) => s.id).sort()).toEqual([...ids].sort());
          for (const bucket of stored) {
            check(bucket.total, expected.get(bucket.id)!);
            for (const [minute, tally] of bucket.minutes) check(tally, expected.get(`${bucket.id}#${minute}`)!);
          }
          // Every expected minute is stored too (none lost, none made up).
          const minutes = [...expected.keys()].filter((k) => k.includes('#')).length;
          expect(stored.reduce((n, s) => n + s.minutes.size, 0)).toBe(minutes);
        }),
        { numRuns: 15 },
      );
    });

    function check(tally: OutcomeTally, reports: Report[]): void {
      expect(tally.ok).toBe(reports.filter((r) => r.ok).length);
      expect(tally.fail).toBe(reports.filter((r) => !r.ok).length);
      for (const code of Object.values(ToolErrorCode)) {
        expect(tally.codes[code] ?? 0).toBe(reports.filter((r) => !r.ok && r.code === code).length);
      }
      const durations = reports.map((r) => r.durationMs).filter((d): d is number => d !== null);
      expect(tally.timed).toBe(durations.length);
      expect(tally.sumMs).toBe(durations.reduce((s, d) => s + d, 0));
      durations.sort((x, y) => x - y);
      for (const q of [0.5, 0.95, 0.99]) {
        if (durations.length === 0) {
          expect(percentileBucket(tally, q)).toBeNull();
          continue;
        }
        const exact = durations[Math.max(1, Math.ceil(q * durations.length)) - 1];
        expect(Math.abs(percentileBucket(tally, q)! - bucketOf(exact))).toBeLessThanOrEqual(1);
      }
    }
  });

  it('writes nothing on a clean success and flushes what it counted when the instance stops', async () => {
    const c = await createTestApp({ env: ENV, clock });
    const writes: string[] = [];
    const listener = (e: { commandName: string; command: Record<string, unknown> }) => {
      if (['insert', 'update', 'delete'].includes(e.commandName)) writes.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    };
    c.connection.getClient().on('commandStarted', listener);
    await c.http.post('/v1/outcomes/success').set('x-api-key', KEYS.dispatcher).send({ toolName: 'search', durationMs: 120 }).expect(200);
    c.connection.getClient().off('commandStarted', listener);
    expect(writes.filter((w) => !w.includes('idempotency'))).toEqual([]);
    expect(await a.connection.db!.collection('outcome_stats').countDocuments()).toBe(0);

    await c.close();
    const hour = await a.connection
      .db!.collection('outcome_stats')
      .findOne({ _id: statsBucketId(StatsResolution.HOUR, 'search', null, floorTo(START, HOUR_MS)) as never });
    expect(hour).toMatchObject({ ok: 1, timed: 1, sumMs: 120, m: { [String(Math.floor((START % HOUR_MS) / MINUTE_MS))]: { ok: 1 } } });
  });

  it('refuses a duration out of bounds, naming the field, in a single report and in a batch item', async () => {
    const res = await a.http
      .post('/v1/outcomes/success')
      .set('x-api-key', KEYS.dispatcher)
      .send({ toolName: 'search', durationMs: -1 })
      .expect(400);
    expect(JSON.stringify(res.body)).toContain('durationMs');
    const batch = await a.http
      .post('/v1/outcomes/batch')
      .set('x-api-key', KEYS.dispatcher)
      .send({
        items: [
          { outcome: 'success', toolName: 'search', durationMs: 3_600_001 },
          { outcome: 'success', toolName: 'search', durationMs: 5 },
        ],
      })
      .expect(200);
    expect(batch.body.results.map((r: { status: number }) => r.status)).toEqual([400, 200]);
    expect(JSON.stringify(batch.body.results[0])).toContain('durationMs');
    await flushAll();
    // The refused report is not counted; the other is.
    const stored = await a.app
      .get(OutcomeStatsRepository)
      .findByIds([statsBucketId(StatsResolution.DAY, 'search', null, floorTo(START, DAY_MS))], false);
    expect(stored[0].total).toMatchObject({ ok: 1, timed: 1 });
  });

  describe('the signals, as callers and the LLM read them', () => {
    const TOOL = 'search';
    const usualHour = START - 2 * HOUR_MS;

    async function calls(n: number, durationMs: number, ok = true): Promise<void> {
      await send(
        a,
        Array.from({ length: n }, () => ({ tool: TOOL, tenant: 'acme', ok, code: ToolErrorCode.BACKEND_FAILED, durationMs })),
        true,
      );
    }

    async function refreshed(): Promise<void> {
      await flushAll();
      await a.app.get(ToolSignalsService).refresh();
    }

    const annotate = async () =>
      (
        await a.http
          .post('/v1/manifest/annotate')
          .set('x-api-key', KEYS.dispatcher)
          .send({ tools: [{ name: TOOL, description: 'Searches the web.' }], context: { tenantId: 'acme' }, timeZone: 'UTC' })
          .expect(200)
      ).body.tools[0];

    it('show "slow" in the lookup, the annotation, the failure answer and GraphQL, and end it on recovery', async () => {
      clock.set(new Date(usualHour + 10 * MINUTE_MS));
      await calls(40, 1000);
      clock.set(new Date(START));
      await calls(25, 9000);
      await refreshed();

      const lookup = await a.http.get(`/v1/tools/${TOOL}/availability`).set('x-api-key', KEYS.dispatcher).expect(200);
      expect(lookup.body.status).toBe('OK');
      // p95s as their buckets' middles (9 000 ms lies in [8 192, 11 585), 1 000 ms in [724, 1 024)), in whole ms.
      expect(lookup.body.signals).toMatchObject({ failingOften: null, slow: { recentCalls: 25, recentP95Ms: 9742, usualP95Ms: 861 } });
      expect(lookup.body.signals.text).toBe('slow right now — about 10 s per call, usually about 900 ms');

      const tool = await annotate();
      expect(tool.description).toBe('Searches the web. (slow right now — about 10 s per call, usually about 900 ms)');
      expect(tool).toMatchObject({ status: 'OK', doNotCall: false });

      const failure = await a.http
        .post('/v1/outcomes/failure')
        .set('x-api-key', KEYS.dispatcher)
        .send({ toolName: TOOL, code: 'BACKEND_FAILED', errorSignature: 'http-502' })
        .expect(200);
      expect(failure.body.signals.slow).not.toBeNull();
      expect(failure.body.why[failure.body.why.length - 1]).toBe(
        'evidence from recent calls: slow right now — about 10 s per call, usually about 900 ms',
      );
      // The status is not the signal's to change.
      expect(failure.body.status).toBe('OK');

      const gql = await a.http
        .post('/graphql')
        .set('x-api-key', KEYS.audit)
        .send({ query: `{ effectiveHealth(toolName: "${TOOL}") { status signals { text slow { recentP95Ms usualP95Ms } } } }` })
        .expect(200);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.effectiveHealth).toEqual({
        status: 'OK',
        signals: { text: lookup.body.signals.text, slow: { recentP95Ms: 9742, usualP95Ms: 861 } },
      });

      // Recovery: the last five minutes are back to the usual speed.
      clock.set(new Date(START + 10 * MINUTE_MS));
      await calls(25, 1000);
      await refreshed();
      const after = await a.http.get(`/v1/tools/${TOOL}/availability`).set('x-api-key', KEYS.dispatcher).expect(200);
      expect(after.body.signals).toBeNull();
      expect((await annotate()).description).toBe('Searches the web.');
    });

    it('show "failing often" only past the minimum number of calls', async () => {
      clock.set(new Date(usualHour + 10 * MINUTE_MS));
      await calls(50, 200);
      clock.set(new Date(START));
      await calls(10, 200, false);
      await calls(9, 200);
      await refreshed();
      expect((await annotate()).description).toBe('Searches the web.');
      await calls(1, 200, false);
      await refreshed();
      expect((await annotate()).description).toBe(
        'Searches the web. (failing often right now — 9 of the last 20 calls worked, usually 100 %)',
      );
      const stats = await a.http.get(`/v1/tools/${TOOL}/stats`).set('x-api-key', KEYS.audit).expect(200);
      expect(stats.body.lastHour).toMatchObject({ calls: 20, successes: 9, failures: 11, successRate: 0.45 });
      expect(stats.body.lastDay).toMatchObject({ calls: 70, successes: 59 });
      expect(stats.body.signals.failingOften).toMatchObject({ recentCalls: 20, recentSuccesses: 9 });
      const tenant = await a.http.get(`/v1/tools/${TOOL}/stats?tenantId=acme`).set('x-api-key', KEYS.audit).expect(200);
      expect(tenant.body).toMatchObject({ tenantId: 'acme', lastHour: { calls: 20 }, signals: null });
    });
  });

  it('tells a signal’s start and end once each, to the outbox and to a webhook, whichever instances see it', async () => {
    const received: { type: string; data: { toolName: string; status: string; payload: Record<string, unknown> } }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await a.http
        .post('/v1/webhook-endpoints')
        .set('x-api-key', KEYS.admin)
        .send({ url, eventTypes: ['SIGNAL_STARTED', 'SIGNAL_ENDED'], toolNames: ['mail'] })
        .expect(201);
      const mail = (n: number, durationMs: number) =>
        send(
          a,
          Array.from({ length: n }, () => ({ tool: 'mail', tenant: null, ok: true, code: ToolErrorCode.BACKEND_FAILED, durationMs })),
          true,
        );
      const refreshBoth = async () => {
        await flushAll();
        await a.app.get(ToolSignalsService).refresh();
        await b.app.get(ToolSignalsService).refresh();
      };
      const deliver = async () => {
        await a.app.get(EventRelay).drain();
        await b.app.get(EventRelay).drain();
        await a.app.get(WebhookDispatcher).runOnce();
      };
      clock.set(new Date(START - 2 * HOUR_MS));
      await mail(40, 1000);
      clock.set(new Date(START));
      await refreshBoth(); // nothing on yet (and an instance's first refresh only learns what is on)
      await mail(25, 9000);
      await refreshBoth();
      await refreshBoth(); // no change: no new event
      await deliver();
      expect(received.map((r) => [r.type, r.data.toolName, r.data.status, r.data.payload.signal])).toEqual([
        ['SIGNAL_STARTED', 'mail', 'OK', 'SLOW'],
      ]);
      expect(received[0].data.payload).toMatchObject({
        text: 'slow right now — about 10 s per call, usually about 900 ms',
        recentP95Ms: 9742,
      });

      clock.set(new Date(START + 10 * MINUTE_MS));
      await mail(25, 1000);
      await refreshBoth();
      await deliver();
      expect(received.map((r) => r.type)).toEqual(['SIGNAL_STARTED', 'SIGNAL_ENDED']);
      expect(received[1].data.payload).toMatchObject({ signal: 'SLOW', text: null, recentP95Ms: null });
      // Both instances saw both changes; the outbox holds one event of each.
      const events = (await a.http.get('/v1/events?limit=500').set('x-api-key', KEYS.audit).expect(200)).body.events as {
        type: string;
        toolName: string;
      }[];
      expect(events.filter((e) => e.toolName === 'mail').map((e) => e.type)).toEqual(['SIGNAL_STARTED', 'SIGNAL_ENDED']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('gives uptime per day across a maintenance window and a pin, maintenance apart', async () => {
    const D = floorTo(START, DAY_MS) - DAY_MS;
    const admin = (path: string, sent: object) => a.http.post(path).set('x-api-key', KEYS.admin).send(sent);
    clock.set(new Date(D + 6 * HOUR_MS));
    await admin('/v1/health/mark-unavailable', { scope: 'GLOBAL', toolName: 'jira', code: 'BACKEND_FAILED', source: 'probe' }).expect(200);
    clock.set(new Date(D + 8 * HOUR_MS));
    const pin = await a.http
      .post('/graphql')
      .set('x-api-key', KEYS.admin)
      .send({
        query: 'mutation($input: PinToolHealthInput!) { pinToolHealth(input: $input) { status } }',
        variables: {
          input: {
            scope: 'GLOBAL',
            toolName: 'jira',
            status: 'OK',
            until: new Date(D + 10 * HOUR_MS).toISOString(),
            reason: 'works for us',
          },
        },
      })
      .expect(200);
    expect(pin.body.errors).toBeUndefined();
    clock.set(new Date(D + 12 * HOUR_MS));
    await admin('/v1/health/mark-available', { scope: 'GLOBAL', toolName: 'jira', source: 'probe' }).expect(200);
    await admin('/v1/maintenance-windows', {
      scope: 'GLOBAL',
      toolName: 'jira',
      from: new Date(D + 18 * HOUR_MS).toISOString(),
      until: new Date(D + 20 * HOUR_MS).toISOString(),
      reason: 'upgrade',
    }).expect(201);
    clock.set(new Date(D + 13 * HOUR_MS));
    await send(
      a,
      [true, true, true, false].map((ok) => ({ tool: 'jira', tenant: null, ok, code: ToolErrorCode.BACKEND_FAILED, durationMs: 100 })),
      true,
    );
    await flushAll();

    clock.set(new Date(D + DAY_MS + HOUR_MS));
    const res = await a.http.get('/v1/tools/jira/uptime?days=2').set('x-api-key', KEYS.audit).expect(200);
    const [day, today] = res.body.days;
    expect(day).toMatchObject({ day: new Date(D).toISOString().slice(0, 10), calls: 4, successRate: 0.75 });
    expect(day.down).toBeCloseTo(4 / 24);
    expect(day.maintenance).toBeCloseTo(2 / 24);
    expect(day.usable).toBeCloseTo(18 / 24);
    expect(day.uptime).toBeCloseTo(18 / 22);
    expect(today).toMatchObject({ usable: 1, down: 0, calls: 0 });

    const gql = await a.http
      .post('/graphql')
      .set('x-api-key', KEYS.audit)
      .send({ query: '{ toolUptime(toolName: "jira", days: 2) { days { day usable down maintenance } } }' })
      .expect(200);
    expect(gql.body.data.toolUptime.days).toEqual(
      res.body.days.map(({ day, usable, down, maintenance }: Record<string, unknown>) => ({ day, usable, down, maintenance })),
    );
    await a.http.get('/v1/tools/jira/uptime?days=91').set('x-api-key', KEYS.audit).expect(400);
  });
});
