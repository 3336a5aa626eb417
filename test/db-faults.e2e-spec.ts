import { Logger } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { SystemWritesService } from '../src/features/system-writes/system-writes.service';
import { KEYS, TestApp, createTestApp, resetDatabase, testDatabaseUri, testDbKind } from './support/test-app';

/**
 * Issue 6, item 4: graceful shutdown under in-flight requests. The outages themselves (reset,
 * SIGKILL, freeze, black hole) need a database of their own that keeps its data: they are in
 * test/persistent/db-faults.e2e-spec.ts (P41).
 */
const KIND = testDbKind();

/** The 'no hanging' promise: the configuration aims at 1 s; this bound only keeps the test from flaking. */
const FAIL_FAST_BOUND_MS = 2500;
const SELECTION_TIMEOUT_MS = '800'; // the service's default (README, Configuration)

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: any;
  startedAt: number;
  ms: number;
}

/** A service instance on a real port, reached with fetch (the same pooled keep-alive client a caller would use). */
class Service {
  private constructor(
    readonly t: TestApp,
    readonly base: string,
  ) {}

  static async start(mongodbUri: string, env: Record<string, string> = {}): Promise<Service> {
    const t = await createTestApp({
      env: {
        MONGODB_URI: mongodbUri,
        DB_SERVER_SELECTION_TIMEOUT_MS: SELECTION_TIMEOUT_MS,
        BOOKKEEPING_FLUSH_MS: '0',
        DB_MONITOR_COMMANDS: 'false',
        ...env,
      },
    });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    return new Service(t, `http://127.0.0.1:${port}`);
  }

  async call(method: string, path: string, body?: object, key: string = KEYS.admin): Promise<Answer> {
    const startedAt = Date.now();
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000), // far above any bound: a hang shows as a slow answer, not a stuck test
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text, and the assertions on the body will say so
    }
    return { status: res.status, body: parsed, startedAt, ms: Date.now() - startedAt };
  }

  ready(): Promise<Answer> {
    return this.call('GET', '/health/ready');
  }

  /** Polls readiness until it answers `status`; resolves to the time it took. */
  async waitReady(status: 200 | 503, withinMs: number): Promise<number> {
    const start = Date.now();
    for (;;) {
      const answer = await this.ready();
      if (answer.status === status) return Date.now() - start;
      if (Date.now() - start > withinMs)
        throw new Error(`readiness did not turn ${status} within ${withinMs} ms (last: ${answer.status} ${JSON.stringify(answer.body)})`);
      await sleep(100);
    }
  }

  close(): Promise<void> {
    return this.t.close();
  }
}

const PROJECT = 'p-faults';
const markDown = (toolName: string) => ({ scope: 'PROJECT', scopeId: PROJECT, toolName, code: 'BACKEND_UNREACHABLE', source: 'faults' });

/** Every name reads DOWN at the project: the acknowledged writes survived. Batches of 500 (the lookup cap). */
async function expectReadable(service: Service, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i += 500) {
    const batch = names.slice(i, i + 500);
    const res = await service.call('POST', '/v1/availability/lookup', { toolNames: batch, context: { projectId: PROJECT } });
    expect(res.status).toBe(200);
    const notDown = (res.body as { toolName: string; status: string }[]).filter((e) => e.status !== 'DOWN').map((e) => e.toolName);
    expect(notDown).toEqual([]);
  }
}

describe(`database faults (${KIND})`, () => {
  // A 500 is logged with its stack (HttpExceptionFilter); the apps here log nothing, so keep them
  // to show in a failure.
  const logged: string[] = [];
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logged.push(String(message)));
  });
  afterAll(() => jest.restoreAllMocks());

  describe('graceful shutdown', () => {
    it('drains in-flight requests: 200 concurrent writes started before app.close() all complete with 200 and are stored, buffered hits flushed, close is prompt', async () => {
      const service = await Service.start(testDatabaseUri(), { BOOKKEEPING_FLUSH_MS: '60000' });
      let closed = false;
      try {
        await resetDatabase(service.t.connection);
        // Slow requests: each write waits at a gate inside the handler until close() has begun.
        const tools = service.t.app.get(SystemWritesService);
        const original = tools.markUnavailable.bind(tools);
        let entered = 0;
        let openGate!: () => void;
        const gate = new Promise<void>((resolve) => (openGate = resolve));
        jest.spyOn(tools, 'markUnavailable').mockImplementation(async (dto) => {
          entered++;
          await gate;
          return original(dto);
        });

        // A cooldown hit buffered in memory (flush interval 60 s): D10b says shutdown flushes it.
        const cooldown = {
          scope: 'PROJECT',
          scopeId: PROJECT,
          toolName: 'drain-cooldown',
          errorSignature: 'http-502',
          classification: 'INTERMITTENT',
        };
        expect((await service.call('POST', '/v1/cooldowns', cooldown)).status).toBe(200);
        const hit = await service.call('POST', '/v1/outcomes/failure', {
          toolName: 'drain-cooldown',
          context: { projectId: PROJECT },
          code: 'BACKEND_FAILED',
          errorSignature: 'http-502',
        });
        expect(hit.body).toMatchObject({ spawn: false, reason: 'IN_COOLDOWN' });

        const names = Array.from({ length: 200 }, (_, i) => `drain-${i}`);
        const inFlight = names.map((n) => service.call('POST', '/v1/health/mark-unavailable', markDown(n)));
        const deadline = Date.now() + 15_000;
        while (entered < names.length && Date.now() < deadline) await sleep(10);
        expect(entered).toBe(names.length);

        const closing = service.close().then(() => (closed = true));
        await sleep(200); // close() has begun: the listener is closed, the requests are still held
        expect(closed).toBe(false);
        openGate();
        const answers = await Promise.all(inFlight);
        const answeredAt = Date.now();
        await closing;
        // Close follows the last answer promptly: the keep-alive connections of the answered
        // requests do not hold it open (Fastify's keepAliveTimeout is 72 s).
        expect(Date.now() - answeredAt).toBeLessThan(FAIL_FAST_BOUND_MS);

        expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
        expect(logged.slice(0, 3)).toEqual([]);
        // A fresh instance reads what the drained requests wrote, and the flushed hit.
        const reader = await Service.start(testDatabaseUri());
        try {
          await expectReadable(reader, names);
          const doc = await reader.call('GET', `/v1/entries?scope=PROJECT&scopeId=${PROJECT}&toolName=drain-cooldown`);
          expect(doc.body.cooldowns[0].hits).toBe(1);
        } finally {
          await reader.close();
        }
      } finally {
        if (!closed) await service.close().catch(() => undefined);
      }
    });
  });
});
