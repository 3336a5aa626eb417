import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HealthEventType } from '../src/domain/health-events';
import { OutcomeStatsRecorder } from '../src/features/tool-stats/outcome-stats-recorder.service';
import { ToolSignalsService } from '../src/features/tool-stats/tool-signals.service';
import { MaintenanceService } from '../src/features/maintenance/maintenance.service';
import { WebhookDispatcher } from '../src/features/webhooks/webhook-dispatcher.service';
import { WiderEvidenceService } from '../src/features/wider-evidence/wider-evidence.service';
import { EventRelay } from '../src/write-path/event-relay.service';
import { PinEndWatch } from '../src/write-path/pin-end.watch';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';
import { Received, Receiver, verify } from './support/webhook-receiver';

/**
 * Issue 37: what a webhook receiver gets for every kind of event, on the real database. One story
 * produces at least one event of every HealthEventType through the public API (REST and GraphQL),
 * with the test hooks other e2e tests use for what runs on a timer (the relay's drain, the
 * dispatcher's pass, the maintenance tick, the pin watch, the statistics flush and signal refresh,
 * the wider-evidence flush). Three receivers on 127.0.0.1 listen:
 * - a STANDARD endpoint taking every type: each delivery verified with the published
 *   `standardwebhooks` package, its `data` equal to the same event read from `GET /v1/events`, and
 *   the fields a receiver needs to act without a second read checked per type (FIELDS below);
 * - a SLACK endpoint (Europe/Berlin) taking every type, with PUBLIC_URL set: each text compared
 *   with the committed example of its type in test/examples/slack/<TYPE>.txt.
 *   SLACK_EXAMPLES_UPDATE=1 writes the texts of this run there instead (then read the diff);
 * - an endpoint that always answers 500, so that after 24 h of retries it is disabled and the
 *   other two are told (WEBHOOK_ENDPOINT_DISABLED).
 * A HealthEventType added later and not produced here fails the test, naming it.
 */

const EXAMPLES = join(__dirname, 'examples', 'slack');
const UPDATE = process.env.SLACK_EXAMPLES_UPDATE === '1';
const PUBLIC_URL = 'https://tool-health.example.com';
const MIN = 60_000;
const START = Date.parse('2026-05-23T14:00:00Z');
const at = (minutes: number) => new Date(START + minutes * MIN);
const iso = (minutes: number) => at(minutes).toISOString();

interface EventData {
  id: string;
  type: HealthEventType;
  toolName: string;
  scope: string;
  scopeId: string | null;
  payload: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * Per type, the fields (paths in the body's `data`) a receiver needs to act without a second read,
 * each checked present with the story's value, and the ones the type lacks, with why. A field
 * listed under `lacks` is checked absent, so the table stays true: when one is added to the
 * event, the test says to move it to `carries`. "Gap:" marks what issue 37 asks for and the
 * event does not carry yet.
 *
 * Every type has the tool (`toolName`), `scope` and `scopeId` (null at GLOBAL), `tenantId` (the
 * TENANT entry's id or the tenant stored on the entry; null at GLOBAL, where no tenant is known),
 * `status` (stored) and `effectiveStatus` (what the entry reads as at its own scope).
 */
const KEY = ['toolName', 'scope', 'scopeId', 'tenantId', 'status', 'effectiveStatus'];
const NO_CHANGE = 'it changes no status (status and effectiveStatus say what the entry reads as)';
const FIELDS: Record<HealthEventType, { carries: string[]; lacks: Record<string, string> }> = {
  STATUS_CHANGED: {
    // The source of a system write is the writer: by = "system:<source>".
    carries: [
      ...KEY,
      'payload.previousStatus',
      'payload.code',
      'payload.note',
      'payload.classification',
      'payload.by',
      'payload.expectedRecoveryAt',
    ],
    lacks: {},
  },
  COOLDOWN_SET: {
    carries: [
      ...KEY,
      'payload.errorSignature',
      'payload.userId',
      'payload.nextSpawnAllowedAt',
      'payload.windowMs',
      'payload.lastClassification',
    ],
    lacks: {
      'payload.previousStatus': NO_CHANGE,
      'payload.expectedRecoveryAt': 'nextSpawnAllowedAt is when a new diagnosis may start, not a recovery estimate',
      'payload.by': 'Gap: who set the cooldown (a checker, a diagnosis) is not carried',
      'payload.note': 'Gap: the why of a cooldown set alone is not carried (with a status change, the STATUS_CHANGED has it)',
      'payload.code': 'Gap: the error code is not carried (lastClassification says the class)',
    },
  },
  COOLDOWN_EXPIRED: {
    carries: [
      ...KEY,
      'payload.errorSignature',
      'payload.userId',
      'payload.nextSpawnAllowedAt',
      'payload.windowMs',
      'payload.lastClassification',
    ],
    lacks: {
      'payload.previousStatus': NO_CHANGE,
      'payload.expectedRecoveryAt': 'the cooldown is over',
      'payload.by': 'Gap: who ended it early (a WORKING verdict, a success, an admin) is not carried',
      'payload.note': 'Gap: not carried (with a status change, the STATUS_CHANGED of the same write has it)',
      'payload.code': 'a cooldown that ends has no error',
    },
  },
  INBOX_ITEM: {
    carries: [...KEY, 'payload.userId', 'payload.classification', 'payload.note', 'payload.by', 'payload.code'],
    lacks: {
      'payload.previousStatus': 'the STATUS_CHANGED of the same write has it; a diagnosis of an entry already in that status changed none',
      'payload.expectedRecoveryAt':
        "Gap: the diagnosis's estimate is stored on the entry but not carried, so an inbox item posted alone cannot say when",
    },
  },
  PIN_SET: {
    carries: [...KEY, 'payload.pinnedStatus', 'payload.until', 'payload.reason', 'payload.by'],
    lacks: {
      'payload.previousStatus': 'Gap: what the entry read as before the pin is not carried',
      'payload.expectedRecoveryAt': 'a pin ends at "pinned until" (payload.until), never "expected back"',
      'payload.code': "a pin is an admin's act: no error code",
      'payload.note': 'the reason is the note',
    },
  },
  PIN_CLEARED: {
    // payload.by is the admin who set the pin (Gap: who removed it is not carried).
    carries: [...KEY, 'payload.pinnedStatus', 'payload.until', 'payload.reason', 'payload.by'],
    lacks: {
      'payload.previousStatus': 'the pin in the payload says what it read as before (pinnedStatus)',
      'payload.expectedRecoveryAt': 'the pin is gone; the stored status (status) applies',
      'payload.code': "a pin is an admin's act: no error code",
      'payload.note': 'the reason is the note',
    },
  },
  PIN_ENDED: {
    // payload.by is the admin who set the pin: it ran out by itself.
    carries: [...KEY, 'payload.pinnedStatus', 'payload.until', 'payload.reason', 'payload.by'],
    lacks: {
      'payload.previousStatus': 'the pin in the payload says what it read as before (pinnedStatus)',
      'payload.expectedRecoveryAt': 'the pin is gone; the stored status (status) applies',
      'payload.code': 'a pin that runs out has no error code',
      'payload.note': 'the reason is the note',
    },
  },
  DELETED: {
    // status is the deleted entry's; effectiveStatus the default OK the key reads as from now on.
    carries: [...KEY, 'payload.previousStatus', 'payload.by'],
    lacks: {
      'payload.note': 'a delete takes no reason in the API',
      'payload.code': 'the entry is gone',
      'payload.expectedRecoveryAt': 'the entry is gone',
    },
  },
  MAINTENANCE_STARTING: {
    // payload.until is the expected recovery; payload.reason the note; payload.by who scheduled it.
    carries: [
      ...KEY,
      'effective.reason',
      'effective.scope',
      'payload.windowId',
      'payload.from',
      'payload.until',
      'payload.reason',
      'payload.by',
      'payload.cancelledAt',
    ],
    lacks: {
      'payload.previousStatus': 'nothing changed yet: status and effectiveStatus are what the entry reads as until the window starts',
      'payload.code': 'planned work: no error code',
    },
  },
  MAINTENANCE_STARTED: {
    carries: [
      ...KEY,
      'effective.reason',
      'effective.scope',
      'payload.windowId',
      'payload.from',
      'payload.until',
      'payload.reason',
      'payload.by',
      'payload.cancelledAt',
    ],
    lacks: {
      'payload.previousStatus': 'Gap: what the entry read as before the window is not carried (status is DOWN here, not the stored status)',
      'payload.code': 'planned work: no error code',
    },
  },
  MAINTENANCE_ENDED: {
    carries: [
      ...KEY,
      'effective.reason',
      'effective.scope',
      'payload.windowId',
      'payload.from',
      'payload.until',
      'payload.reason',
      'payload.by',
      'payload.cancelledAt',
    ],
    lacks: {
      'payload.previousStatus': 'under maintenance (DOWN) is implied by the type',
      'payload.code': 'planned work: no error code',
    },
  },
  WIDER_EVIDENCE: {
    carries: [
      ...KEY,
      'payload.errorSignature',
      'payload.distinctUsers',
      'payload.distinctProjects',
      'payload.since',
      'payload.coalescingKey',
    ],
    lacks: {
      'payload.previousStatus': NO_CHANGE,
      'payload.by': 'counted by the service from failure reports: no writer',
      'payload.code': 'Gap: the error code of the failures counted is not carried (errorSignature names them)',
      'payload.expectedRecoveryAt': 'evidence: no estimate exists',
    },
  },
  WEBHOOK_ENDPOINT_DISABLED: {
    // It names no tool: toolName "", GLOBAL, no tenant, status OK (P184).
    carries: [...KEY, 'payload.endpointId', 'payload.description', 'payload.reason', 'payload.failingSince', 'payload.attempts'],
    lacks: { 'payload.by': 'the service disabled it by itself' },
  },
  SIGNAL_STARTED: {
    // Counted over every caller: GLOBAL, no tenant.
    carries: [...KEY, 'payload.signal', 'payload.text', 'payload.recentCalls', 'payload.recentP95Ms', 'payload.usualP95Ms'],
    lacks: {
      'payload.previousStatus': NO_CHANGE,
      'payload.by': 'computed by the service from outcome reports: no writer',
      'payload.expectedRecoveryAt': 'evidence: no estimate exists',
    },
  },
  SIGNAL_ENDED: {
    carries: [...KEY, 'payload.signal', 'payload.text', 'payload.recentCalls'],
    lacks: {
      'payload.previousStatus': NO_CHANGE,
      'payload.by': 'computed by the service from outcome reports: no writer',
      'payload.expectedRecoveryAt': 'over: nothing to recover from',
    },
  },
};

describe('webhook bodies, every event type (issue 37)', () => {
  let t: TestApp;
  const standard = new Receiver();
  const slack = new Receiver();
  const failing = new Receiver();
  let standardSecret: string;
  let slackSecret: string;
  let slackId: string;
  let standardId: string;
  let failingId: string;
  let windowId: string;
  let emergencyId: string;
  /** Each STANDARD body, verified at the moment it arrived. */
  const verified: { webhookId: string; body: { type: string; timestamp: string; data: EventData } }[] = [];
  /** Each SLACK body, verified at the moment it arrived. */
  const slackPosts: { webhookId: string; text: string }[] = [];

  const verifyNow = (secret: string, r: Received): unknown => verify(secret, r, t.clock);

  const deliver = async () => {
    await t.app.get(EventRelay).drain();
    await t.app.get(WebhookDispatcher).runOnce();
    for (const r of standard.received.splice(0)) {
      verified.push({
        webhookId: String(r.headers['webhook-id']),
        body: verifyNow(standardSecret, r) as (typeof verified)[number]['body'],
      });
    }
    for (const r of slack.received.splice(0)) {
      slackPosts.push({ webhookId: String(r.headers['webhook-id']), text: (verifyNow(slackSecret, r) as { text: string }).text });
    }
  };
  const step = async (minutes: number, act: () => Promise<unknown>) => {
    t.clock.set(at(minutes));
    await act();
    await deliver();
  };

  const admin = { 'x-api-key': KEYS.admin };
  const post = (path: string, key: string, body: object) =>
    t.http
      .post(path)
      .set('x-api-key', key)
      .send(body)
      .expect((res) => {
        if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
      });
  const gql = async (query: string, variables: object) => {
    const res = await t.http.post('/graphql').set(admin).send({ query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };
  const pin = (input: object) => gql('mutation($i: PinToolHealthInput!) { pinToolHealth(input: $i) { id } }', { i: input });
  const stats = async () => {
    await t.app.get(OutcomeStatsRecorder).flush();
    await t.app.get(ToolSignalsService).refresh();
  };
  const calls = (n: number, durationMs: number) =>
    post('/v1/outcomes/batch', KEYS.dispatcher, {
      items: Array.from({ length: n }, () => ({ outcome: 'success', toolName: 'mail_send', durationMs })),
    });

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_POLL_MS: '0',
        WEBHOOK_TIMEOUT_MS: '1000',
        MAINTENANCE_TICK_MS: '0',
        WIDER_EVIDENCE_FLUSH_MS: '60000',
        STATS_FLUSH_MS: '300000',
        STATS_SIGNAL_REFRESH_MS: '0',
        PUBLIC_URL,
      },
    });
    t.app.get(WebhookDispatcher).random = () => 0.5;
    await resetDatabase(t.connection);

    // The usual of mail_send: an hour of calls of about a second, two hours before the story.
    t.clock.set(at(-120));
    await calls(40, 1000);
    t.clock.set(at(0));
    await stats(); // an instance's first refresh only learns what is on

    const register = async (url: string, body: object) =>
      (
        await t.http
          .post('/v1/webhook-endpoints')
          .set(admin)
          .send({ url, ...body })
          .expect(201)
      ).body as {
        endpoint: { id: string };
        secret: string;
      };
    const std = await register(await standard.start(), { description: 'standard, every type' });
    standardSecret = std.secret;
    standardId = std.endpoint.id;
    const s = await register(await slack.start(), { format: 'SLACK', timeZone: 'Europe/Berlin', description: 'on-call channel' });
    slackSecret = s.secret;
    slackId = s.endpoint.id;

    // 14:00 A gateway sees jira_search down for everyone, with a note and an estimate.
    await step(0, () =>
      post('/v1/health/mark-unavailable', KEYS.dispatcher, {
        scope: 'GLOBAL',
        toolName: 'jira_search',
        code: 'BACKEND_UNREACHABLE',
        source: 'probe',
        note: 'MCP connection closed',
        expectedRecoveryAt: iso(30),
      }),
    );
    // 14:01 A diagnosis: confluence broken for project p-1 of tenant acme (status, inbox item and cooldown in one write).
    await step(1, () =>
      post('/v1/diagnoses', KEYS.writer, {
        scope: 'PROJECT',
        scopeId: 'p-1',
        tenantId: 'acme',
        toolName: 'confluence',
        classification: 'TECHNICALLY_BROKEN',
        note: 'HTTP 503 from Confluence',
        by: 'agrajag-7',
        code: 'BACKEND_FAILED',
        errorSignature: 'http-503',
        expectedRecoveryAt: iso(60),
      }),
    );
    // 14:02 A second diagnosis of a tool already DOWN: no status change, an inbox item alone.
    await step(2, () =>
      post('/v1/diagnoses', KEYS.writer, {
        scope: 'GLOBAL',
        toolName: 'jira_search',
        classification: 'TECHNICALLY_BROKEN',
        note: 'Jira answers 503 for every project',
        by: 'agrajag-8',
        code: 'BACKEND_FAILED',
      }),
    );
    // 14:03 The checker sets a user's cooldown: a COOLDOWN_SET alone.
    await step(3, () =>
      post('/v1/cooldowns', KEYS.dispatcher, {
        scope: 'USER',
        scopeId: 'alice',
        tenantId: 'acme',
        toolName: 'confluence',
        errorSignature: 'http-403',
        classification: 'USER_PERMISSION',
        userId: 'alice',
      }),
    );
    // 14:04 A WORKING verdict: confluence is back for p-1, its cooldown ends early.
    await step(4, () =>
      post('/v1/diagnoses', KEYS.writer, {
        scope: 'PROJECT',
        scopeId: 'p-1',
        tenantId: 'acme',
        toolName: 'confluence',
        classification: 'WORKING',
        note: 'answers again',
        by: 'agrajag-7',
      }),
    );
    // 14:05 sharepoint flaky for tenant acme; an admin pins it OK (the stored DEGRADED stays beneath).
    await step(5, async () => {
      await post('/v1/health/mark-intermittent', KEYS.dispatcher, {
        scope: 'TENANT',
        scopeId: 'acme',
        toolName: 'sharepoint',
        source: 'gateway',
        code: 'BACKEND_FAILED',
        note: 'one call in five times out',
      });
      await pin({
        scope: 'TENANT',
        scopeId: 'acme',
        toolName: 'sharepoint',
        status: 'OK',
        until: iso(120),
        reason: 'vendor says it works',
      });
    });
    // 14:05:30 sharepoint fails completely while pinned OK: callers still get OK, the stored status is DOWN.
    await step(5.5, () =>
      post('/v1/health/mark-unavailable', KEYS.dispatcher, {
        scope: 'TENANT',
        scopeId: 'acme',
        toolName: 'sharepoint',
        code: 'BACKEND_UNREACHABLE',
        source: 'gateway',
        note: 'every call times out',
      }),
    );
    // 14:06 The pin removed before its end.
    await step(6, () =>
      gql('mutation($i: HealthKeyInput!) { unpinToolHealth(input: $i) { id } }', {
        i: { scope: 'TENANT', scopeId: 'acme', toolName: 'sharepoint' },
      }),
    );
    // 14:07 outlook pinned DOWN for everyone until 14:30 (nothing stored beneath: OK).
    await step(7, () => pin({ scope: 'GLOBAL', toolName: 'outlook', status: 'DOWN', until: iso(30), reason: 'vendor outage' }));
    // 14:08 bob of acme cannot reach confluence; 14:09 an admin deletes that entry.
    await step(8, () =>
      post('/v1/health/mark-unavailable', KEYS.dispatcher, {
        scope: 'USER',
        scopeId: 'bob',
        tenantId: 'acme',
        toolName: 'confluence',
        code: 'BACKEND_FAILED',
        source: 'gateway',
        note: 'login loop',
      }),
    );
    await step(9, () =>
      gql('mutation($i: HealthKeyInput!) { deleteToolHealth(input: $i) { id } }', {
        i: { scope: 'USER', scopeId: 'bob', toolName: 'confluence' },
      }),
    );
    // 14:10 Maintenance of jira_search for tenant acme from 14:20 to 15:20: announced within the 15-minute lead.
    await step(10, async () => {
      const window = await post('/v1/maintenance-windows', KEYS.admin, {
        scope: 'TENANT',
        scopeId: 'acme',
        toolName: 'jira_search',
        from: iso(20),
        until: iso(80),
        reason: 'Jira upgrade to 10.3',
      });
      windowId = window.body.id;
      await t.app.get(MaintenanceService).emitDueEvents();
    });
    // 14:12 teams_send fails for 5 users in 3 projects of acme: wider evidence.
    await step(12, async () => {
      for (const [user, project] of [
        ['u1', 'p1'],
        ['u2', 'p1'],
        ['u3', 'p2'],
        ['u4', 'p2'],
        ['u5', 'p3'],
      ]) {
        await post('/v1/outcomes/failure', KEYS.dispatcher, {
          toolName: 'teams_send',
          context: { userId: user, projectId: project, tenantId: 'acme' },
          code: 'BACKEND_FAILED',
          errorSignature: 'http-502',
        });
      }
      await t.app.get(WiderEvidenceService).flush();
    });
    // 14:14 mail_send turns slow (about 9 s a call against its usual second).
    await step(14, async () => {
      await calls(25, 9000);
      await stats();
    });
    // 14:20 The maintenance begins.
    await step(20, () => t.app.get(MaintenanceService).emitDueEvents());
    // 14:30 outlook's pin runs out; mail_send is fast again.
    await step(30, async () => {
      await t.app.get(PinEndWatch).runOnce();
      await calls(25, 1000);
      await stats();
    });
    // 14:40 Emergency maintenance of confluence for project p-2, in force at once; 14:45 cancelled while in force.
    // A window takes no tenant: below TENANT scope its events know none.
    await step(40, async () => {
      const window = await post('/v1/maintenance-windows', KEYS.admin, {
        scope: 'PROJECT',
        scopeId: 'p-2',
        toolName: 'confluence',
        from: iso(40),
        until: iso(160),
        reason: 'database failover',
      });
      emergencyId = window.body.id;
      await t.app.get(MaintenanceService).emitDueEvents();
    });
    await step(45, () => t.http.delete(`/v1/maintenance-windows/${emergencyId}`).set(admin).expect(200));
    // 15:20 The maintenance ends.
    await step(80, () => t.app.get(MaintenanceService).emitDueEvents());

    // 15:21 A third endpoint, whose receiver answers 500, wants status changes; jira_search is back.
    t.clock.set(at(81));
    failing.answer = 500;
    failingId = (await register(await failing.start(), { eventTypes: ['STATUS_CHANGED'], description: 'broken receiver' })).endpoint.id;
    await step(81, () =>
      post('/v1/health/mark-available', KEYS.dispatcher, {
        scope: 'GLOBAL',
        toolName: 'jira_search',
        source: 'probe',
        note: 'MCP connection back',
      }),
    );
    // Its retries run for 24 h (the clock moves to each one); then it is disabled, with an event.
    for (let i = 0; i < 40; i++) {
      const state = (await t.http.get(`/v1/webhook-endpoints/${failingId}`).set('x-api-key', KEYS.audit).expect(200)).body;
      if (!state.enabled) break;
      t.clock.set(state.nextRetryAt);
      await deliver();
    }
    await deliver();
  }, 120_000);

  afterAll(async () => {
    await standard.stop();
    await slack.stop();
    await failing.stop();
    await t?.close();
  });

  const logged = async () => (await t.http.get('/v1/events?limit=500').set('x-api-key', KEYS.audit).expect(200)).body.events as EventData[];
  const deliveriesOf = async (id: string) =>
    (await t.http.get(`/v1/webhook-endpoints/${id}/deliveries?limit=500`).set('x-api-key', KEYS.audit).expect(200)).body as {
      id: string;
      eventId: string | null;
      eventType: string;
      state: string;
    }[];

  it('produces every HealthEventType, and the STANDARD endpoint receives each', () => {
    const seen = new Set(verified.map((v) => v.body.type));
    const missing = Object.values(HealthEventType).filter((type) => !seen.has(type));
    // A type added to HealthEventType must be produced by the story above (and get a row in FIELDS and a Slack example).
    expect({ missing }).toEqual({ missing: [] });
  });

  it('STANDARD: every delivery verifies, once per event of the log, its data equal to the event GET /v1/events gives', async () => {
    const log = await logged();
    // Every event of the log was delivered, once, in order (the endpoint existed before the first).
    expect(verified.map((v) => v.body.data.id)).toEqual(log.map((e) => e.id));
    const byId = new Map(log.map((e) => [e.id, e]));
    for (const { body } of verified) {
      expect(body.data).toEqual(byId.get(body.data.id));
      expect([body.type, body.timestamp]).toEqual([body.data.type, body.data.at]);
    }
    // The deliveries log names the event of each webhook-id: what a receiver deduplicates by.
    const deliveries = new Map((await deliveriesOf(standardId)).map((d) => [d.id, d]));
    for (const { webhookId, body } of verified) {
      expect(deliveries.get(webhookId)).toMatchObject({ eventId: body.data.id, eventType: body.type, state: 'DELIVERED' });
    }
  });

  it('STANDARD: each body carries, per type, what a receiver needs to act without a second read', () => {
    // The story's events in the order they were written, with the value of every field FIELDS lists for their type.
    const expected = EXPECTED({ windowId, emergencyId, failingId });
    expect(verified.map((v) => `${v.body.type} ${v.body.data.toolName}`)).toEqual(expected.map((e) => `${e.type} ${e.toolName}`));
    const problems: string[] = [];
    verified.forEach(({ body: { data } }, i) => {
      const row = FIELDS[data.type];
      const want = expected[i];
      const label = `#${i} ${data.type} ${data.toolName}`;
      for (const field of row.carries) {
        if (!(field in want)) problems.push(`${label}: the story gives no expected value of ${field}`);
        const got = valueAt(data, field);
        const ok = typeof want[field] === 'function' ? (want[field] as (v: unknown) => boolean)(got) : equal(got, want[field]);
        if (got === undefined || !ok) problems.push(`${label}: ${field} is ${JSON.stringify(got)}, expected ${shown(want[field])}`);
      }
      for (const field of Object.keys(want)) {
        if (field !== 'type' && !row.carries.includes(field))
          problems.push(`${label}: ${field} is expected but not in FIELDS.${data.type}`);
      }
      // The table stays true: a field it says the type lacks is not in the body (when one is added, move it to carries).
      for (const field of Object.keys(row.lacks)) {
        if (valueAt(data, field) !== undefined) problems.push(`${label}: now carries ${field}; move it to FIELDS.${data.type}.carries`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('SLACK: one post per change, each with the console link, each text equal to the committed example of its type', async () => {
    const deliveries = new Map((await deliveriesOf(slackId)).map((d) => [d.id, d]));
    const posted = slackPosts.map((p) => ({ ...p, delivery: deliveries.get(p.webhookId)! }));
    expect(posted.every((p) => p.delivery?.state === 'DELIVERED')).toBe(true);

    // A write's INBOX_ITEM and COOLDOWN_SET are told by its STATUS_CHANGED: not posted beside it.
    const writeOf = (e: EventData) => e.id.slice(0, e.id.lastIndexOf(':' + e.type));
    const changes = new Set(verified.filter((v) => v.body.type === 'STATUS_CHANGED').map((v) => writeOf(v.body.data)));
    const told = (e: EventData) => (e.type === 'INBOX_ITEM' || e.type === 'COOLDOWN_SET') && changes.has(writeOf(e));
    expect(posted.map((p) => p.delivery.eventId)).toEqual(
      verified
        .map((v) => v.body.data)
        .filter((e) => !told(e))
        .map((e) => e.id),
    );

    for (const p of posted) expect(p.text).toMatch(new RegExp(` — <${PUBLIC_URL}/console\\|open the console>$`));

    const byType = new Map<string, string[]>();
    for (const p of posted) byType.set(p.delivery.eventType, [...(byType.get(p.delivery.eventType) ?? []), normalised(p.text)]);
    if (UPDATE) mkdirSync(EXAMPLES, { recursive: true });
    const problems: string[] = [];
    for (const type of Object.values(HealthEventType)) {
      const file = join(EXAMPLES, `${type}.txt`);
      const texts = byType.get(type);
      if (!texts) {
        problems.push(`${type}: no Slack post in the story`);
        continue;
      }
      const got = texts.join('\n') + '\n';
      if (UPDATE) writeFileSync(file, got);
      else if (!existsSync(file)) problems.push(`${type}: no example test/examples/slack/${type}.txt (SLACK_EXAMPLES_UPDATE=1 writes it)`);
      else if (readFileSync(file, 'utf8') !== got) problems.push(`${type}:\n  example: ${readFileSync(file, 'utf8')}  got:     ${got}`);
    }
    expect(problems).toEqual([]);
  });
});

type Expected = { type: HealthEventType; toolName: string } & Record<string, unknown>;

/** A value within `share` of `about`: figures read from percentile buckets. */
const near = (about: number, share: number) =>
  Object.assign((v: unknown) => typeof v === 'number' && Math.abs(v - about) <= about * share, {
    shown: `about ${about} (±${share * 100} %)`,
  });

/** The events the story writes, in order, with the value of every field FIELDS lists for their type. */
function EXPECTED(ids: { windowId: string; emergencyId: string; failingId: string }): Expected[] {
  const key = (toolName: string, scope: string, scopeId: string | null, tenantId: string | null) => ({
    toolName,
    scope,
    scopeId,
    tenantId,
  });
  const jiraGlobal = key('jira_search', 'GLOBAL', null, null);
  const confluenceP1 = key('confluence', 'PROJECT', 'p-1', 'acme');
  const sharepoint = key('sharepoint', 'TENANT', 'acme', 'acme');
  const outlook = key('outlook', 'GLOBAL', null, null);
  const jiraAcme = key('jira_search', 'TENANT', 'acme', 'acme');
  const mail = key('mail_send', 'GLOBAL', null, null);
  const statuses = (status: string, effectiveStatus = status) => ({ status, effectiveStatus });
  const change = (p: {
    previousStatus: string | null;
    code: string | null;
    note: string;
    classification?: string;
    by: string;
    expectedRecoveryAt?: string;
  }) => ({
    'payload.previousStatus': p.previousStatus,
    'payload.code': p.code,
    'payload.note': p.note,
    'payload.classification': p.classification ?? null,
    'payload.by': p.by,
    'payload.expectedRecoveryAt': p.expectedRecoveryAt ?? null,
  });
  const cooldown = (p: { errorSignature: string; userId: string | null; next: string; windowMs: number; lastClassification: string }) => ({
    'payload.errorSignature': p.errorSignature,
    'payload.userId': p.userId,
    'payload.nextSpawnAllowedAt': p.next,
    'payload.windowMs': p.windowMs,
    'payload.lastClassification': p.lastClassification,
  });
  const inbox = (note: string, by: string) => ({
    'payload.userId': null,
    'payload.classification': 'TECHNICALLY_BROKEN',
    'payload.note': note,
    'payload.by': by,
    'payload.code': 'BACKEND_FAILED',
  });
  const pinned = (pinnedStatus: string, until: string, reason: string) => ({
    'payload.pinnedStatus': pinnedStatus,
    'payload.until': until,
    'payload.reason': reason,
    'payload.by': 'admin:admin',
  });
  const window = {
    'payload.windowId': ids.windowId,
    'payload.from': iso(20),
    'payload.until': iso(80),
    'payload.reason': 'Jira upgrade to 10.3',
    'payload.by': 'admin:admin',
    'payload.cancelledAt': null,
  };
  const emergency = {
    'payload.windowId': ids.emergencyId,
    'payload.from': iso(40),
    'payload.until': iso(160),
    'payload.reason': 'database failover',
    'payload.by': 'admin:admin',
    'payload.cancelledAt': null,
  };
  const T = HealthEventType;
  return [
    {
      type: T.STATUS_CHANGED,
      ...jiraGlobal,
      ...statuses('DOWN'),
      ...change({
        previousStatus: null,
        code: 'BACKEND_UNREACHABLE',
        note: 'MCP connection closed',
        by: 'system:probe',
        expectedRecoveryAt: iso(30),
      }),
    },
    {
      type: T.STATUS_CHANGED,
      ...confluenceP1,
      ...statuses('DOWN'),
      ...change({
        previousStatus: null,
        code: 'BACKEND_FAILED',
        note: 'HTTP 503 from Confluence',
        classification: 'TECHNICALLY_BROKEN',
        by: 'agrajag-7',
        expectedRecoveryAt: iso(60),
      }),
    },
    // TECHNICALLY_BROKEN's cooldown runs until the expected recovery.
    {
      type: T.COOLDOWN_SET,
      ...confluenceP1,
      ...statuses('DOWN'),
      ...cooldown({
        errorSignature: 'http-503',
        userId: null,
        next: iso(60),
        windowMs: 59 * MIN,
        lastClassification: 'TECHNICALLY_BROKEN',
      }),
    },
    { type: T.INBOX_ITEM, ...confluenceP1, ...statuses('DOWN'), ...inbox('HTTP 503 from Confluence', 'agrajag-7') },
    { type: T.INBOX_ITEM, ...jiraGlobal, ...statuses('DOWN'), ...inbox('Jira answers 503 for every project', 'agrajag-8') },
    {
      type: T.COOLDOWN_SET,
      ...key('confluence', 'USER', 'alice', 'acme'),
      ...statuses('OK'),
      ...cooldown({
        errorSignature: 'http-403',
        userId: 'alice',
        next: iso(3 + 24 * 60),
        windowMs: 24 * 60 * MIN,
        lastClassification: 'USER_PERMISSION',
      }),
    },
    {
      type: T.STATUS_CHANGED,
      ...confluenceP1,
      ...statuses('OK'),
      ...change({ previousStatus: 'DOWN', code: null, note: 'answers again', classification: 'WORKING', by: 'agrajag-7' }),
    },
    // Ended early: its end moved to the moment of the verdict.
    {
      type: T.COOLDOWN_EXPIRED,
      ...confluenceP1,
      ...statuses('OK'),
      ...cooldown({ errorSignature: 'http-503', userId: null, next: iso(4), windowMs: 59 * MIN, lastClassification: 'TECHNICALLY_BROKEN' }),
    },
    {
      type: T.STATUS_CHANGED,
      ...sharepoint,
      ...statuses('DEGRADED'),
      ...change({ previousStatus: null, code: 'BACKEND_FAILED', note: 'one call in five times out', by: 'system:gateway' }),
    },
    { type: T.PIN_SET, ...sharepoint, ...statuses('DEGRADED', 'OK'), ...pinned('OK', iso(120), 'vendor says it works') },
    // Under the pin: callers still get OK, the stored status is DOWN.
    {
      type: T.STATUS_CHANGED,
      ...sharepoint,
      ...statuses('DOWN', 'OK'),
      ...change({ previousStatus: 'DEGRADED', code: 'BACKEND_UNREACHABLE', note: 'every call times out', by: 'system:gateway' }),
    },
    { type: T.PIN_CLEARED, ...sharepoint, ...statuses('DOWN'), ...pinned('OK', iso(120), 'vendor says it works') },
    { type: T.PIN_SET, ...outlook, ...statuses('OK', 'DOWN'), ...pinned('DOWN', iso(30), 'vendor outage') },
    {
      type: T.STATUS_CHANGED,
      ...key('confluence', 'USER', 'bob', 'acme'),
      ...statuses('DOWN'),
      ...change({ previousStatus: null, code: 'BACKEND_FAILED', note: 'login loop', by: 'system:gateway' }),
    },
    {
      type: T.DELETED,
      ...key('confluence', 'USER', 'bob', 'acme'),
      ...statuses('DOWN', 'OK'),
      'payload.previousStatus': 'DOWN',
      'payload.by': 'admin:admin',
    },
    // jira_search is DOWN for everyone since 14:00, so tenant acme's callers are told DOWN: the
    // event says so, and where it is decided (its own entry is OK).
    {
      type: T.MAINTENANCE_STARTING,
      ...jiraAcme,
      ...statuses('OK', 'DOWN'),
      ...window,
      'effective.reason': 'LIVE_PROBLEM',
      'effective.scope': 'GLOBAL',
    },
    {
      type: T.WIDER_EVIDENCE,
      ...key('teams_send', 'TENANT', 'acme', 'acme'),
      ...statuses('OK'),
      'payload.errorSignature': 'http-502',
      'payload.distinctUsers': 5,
      'payload.distinctProjects': 3,
      'payload.since': iso(12),
      'payload.coalescingKey': 'teams_send:http-502@TENANT:acme',
    },
    {
      type: T.SIGNAL_STARTED,
      ...mail,
      ...statuses('OK'),
      'payload.signal': 'SLOW',
      'payload.text': Object.assign(
        (v: unknown) => typeof v === 'string' && /^slow right now — about \d+ s per call, usually about \d+ ms$/.test(v),
        {
          shown: '"slow right now — about … s per call, usually about … ms"',
        },
      ),
      'payload.recentCalls': 25,
      'payload.recentP95Ms': near(9000, 0.15),
      'payload.usualP95Ms': near(1000, 0.15),
    },
    // While the window is in force the key reads DOWN (the event gives DOWN as its status too).
    {
      type: T.MAINTENANCE_STARTED,
      ...jiraAcme,
      ...statuses('DOWN'),
      ...window,
      'effective.reason': 'MAINTENANCE',
      'effective.scope': 'TENANT',
    },
    { type: T.PIN_ENDED, ...outlook, ...statuses('OK'), ...pinned('DOWN', iso(30), 'vendor outage') },
    { type: T.SIGNAL_ENDED, ...mail, ...statuses('OK'), 'payload.signal': 'SLOW', 'payload.text': null, 'payload.recentCalls': null },
    // A window takes no tenant: at PROJECT scope its events know none (Gap: a receiver routing by tenant cannot).
    {
      type: T.MAINTENANCE_STARTED,
      ...key('confluence', 'PROJECT', 'p-2', null),
      ...statuses('DOWN'),
      ...emergency,
      'effective.reason': 'MAINTENANCE',
      'effective.scope': 'PROJECT',
    },
    {
      type: T.MAINTENANCE_ENDED,
      ...key('confluence', 'PROJECT', 'p-2', null),
      ...statuses('OK'),
      ...emergency,
      'effective.reason': 'DEFAULT_OK',
      'effective.scope': null,
      'payload.cancelledAt': iso(45),
    },
    // The window is over, jira_search still DOWN for everyone until 15:21.
    {
      type: T.MAINTENANCE_ENDED,
      ...jiraAcme,
      ...statuses('OK', 'DOWN'),
      ...window,
      'effective.reason': 'LIVE_PROBLEM',
      'effective.scope': 'GLOBAL',
    },
    {
      type: T.STATUS_CHANGED,
      ...jiraGlobal,
      ...statuses('OK'),
      ...change({ previousStatus: 'DOWN', code: null, note: 'MCP connection back', by: 'system:probe' }),
    },
    {
      type: T.WEBHOOK_ENDPOINT_DISABLED,
      ...key('', 'GLOBAL', null, null),
      ...statuses('OK'),
      'payload.endpointId': ids.failingId,
      'payload.description': 'broken receiver',
      'payload.reason': 'deliveries failed for 24 h; the last attempt: HTTP 500',
      'payload.failingSince': iso(81),
      'payload.attempts': 17,
    },
  ];
}

function valueAt(data: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, part) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined), data);
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function shown(want: unknown): string {
  return typeof want === 'function' ? String((want as { shown?: string }).shown ?? 'a value the check accepts') : JSON.stringify(want);
}

/** Ids that differ per run (endpoint and window ids are random UUIDs) read as <id>. */
function normalised(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');
}
