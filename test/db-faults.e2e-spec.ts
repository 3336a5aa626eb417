import { Logger } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolHealthService } from '../src/health/tool-health.service';
import { ConnectionWatchdog } from '../src/persistence/connection-watchdog';
import { TcpProxy } from './support/tcp-proxy';
import { KEYS, TestApp, createTestApp, resetDatabase, testDatabaseUri, testDbKind } from './support/test-app';

/**
 * Issue 6, item 4: the database goes away under load and comes back. Requests must fail fast
 * with a clear 503 (no buffering, short server selection), readiness must say so, the service
 * must recover by itself, and nothing acknowledged may be lost. Runs on both test servers.
 */
const KIND = testDbKind();
const ROOT = join(__dirname, '..');

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
      env: { MONGODB_URI: mongodbUri, DB_SERVER_SELECTION_TIMEOUT_MS: SELECTION_TIMEOUT_MS, BOOKKEEPING_FLUSH_MS: '0', DB_MONITOR_COMMANDS: 'false', ...env },
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
      if (Date.now() - start > withinMs) throw new Error(`readiness did not turn ${status} within ${withinMs} ms (last: ${answer.status} ${JSON.stringify(answer.body)})`);
      await sleep(100);
    }
  }

  close(): Promise<void> {
    return this.t.close();
  }
}

const PROJECT = 'p-faults';
const markDown = (toolName: string) => ({ scope: 'PROJECT', scopeId: PROJECT, toolName, code: 'BACKEND_UNREACHABLE', source: 'faults' });

interface Outcome extends Answer {
  op: 'write' | 'hot-write' | 'read';
  toolName?: string;
}

/**
 * A bounded load: `workers` loops of writes to fresh keys, writes to one hot key (they queue on
 * the per-key lock) and cascade reads, until stopped or `maxRequests` were sent.
 */
function startLoad(service: Service, label: string, workers = 12, maxRequests = 3000) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  let sent = 0;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; !stopped && sent < maxRequests; i++) {
      sent++;
      const kind = w % 4 === 3 ? 'hot-write' : w % 4 === 2 ? 'read' : 'write';
      if (kind === 'write') {
        const toolName = `${label}-w${w}-${i}`;
        outcomes.push({ op: 'write', toolName, ...(await service.call('POST', '/v1/health/mark-unavailable', markDown(toolName))) });
      } else if (kind === 'hot-write') {
        outcomes.push({ op: 'hot-write', ...(await service.call('POST', '/v1/health/mark-unavailable', markDown(`${label}-hot`))) });
      } else {
        outcomes.push({ op: 'read', ...(await service.call('POST', '/v1/availability/lookup', { toolNames: [`${label}-w0-0`, `${label}-hot`], context: { projectId: PROJECT } })) });
      }
      await sleep(5);
    }
  });
  return {
    outcomes,
    async stop(): Promise<Outcome[]> {
      stopped = true;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

async function writeKeys(service: Service, names: string[]): Promise<void> {
  const answers = await Promise.all(names.map((n) => service.call('POST', '/v1/health/mark-unavailable', markDown(n))));
  expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
}

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

/**
 * The load's answers around an outage from `downAt` to `upAt` (database back) and `readyAt`
 * (readiness 200 again): every answer a 200 or a clear 503, nothing a 500; every 503 and every
 * request in flight during the outage answered within the bound (no hanging); everything sent
 * while the database was away a 503 (nothing can succeed); everything sent once ready a 200.
 * Successful requests after the outage are not bounded: their time is the load's, not the fault's.
 */
function expectOutageHandled(outcomes: Outcome[], { downAt, upAt, readyAt }: { downAt: number; upAt: number; readyAt: number }): void {
  const unexpected = outcomes.filter((o) => o.status !== 200 && o.status !== 503).map((o) => `${o.op} ${o.status} ${JSON.stringify(o.body)}`);
  expect(unexpected).toEqual([]);
  for (const o of outcomes.filter((x) => x.status === 503)) {
    expect(o.body).toEqual({ statusCode: 503, error: 'UNAVAILABLE', message: expect.stringMatching(/database is unavailable/) });
  }
  const slow = outcomes
    .filter((o) => (o.status === 503 || o.startedAt < upAt) && o.ms >= FAIL_FAST_BOUND_MS)
    .map((o) => `${o.op} ${o.status} after ${o.ms} ms, sent ${o.startedAt - downAt} ms after the outage began`);
  expect(slow).toEqual([]);

  const during = outcomes.filter((o) => o.startedAt > downAt + 50 && o.startedAt + o.ms < upAt);
  expect(during.length).toBeGreaterThanOrEqual(10);
  expect(during.filter((o) => o.status !== 503).map((o) => `${o.op} ${o.status}`)).toEqual([]);
  const after = outcomes.filter((o) => o.startedAt > readyAt);
  expect(after.length).toBeGreaterThanOrEqual(10);
  expect(after.filter((o) => o.status !== 200).map((o) => `${o.op} ${o.status}`)).toEqual([]);
}

function summary(outcomes: Outcome[]): string {
  const by = (status: number) => outcomes.filter((o) => o.status === status);
  const max = (xs: Outcome[]) => (xs.length ? Math.max(...xs.map((o) => o.ms)) : 0);
  return `${outcomes.length} requests: ${by(200).length} × 200 (max ${max(by(200))} ms), ${by(503).length} × 503 (max ${max(by(503))} ms)`;
}

describe(`database faults (${KIND})`, () => {
  // A 500 is logged with its stack (HttpExceptionFilter); the apps here log nothing, so keep them
  // to show in a failure.
  const logged: string[] = [];
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logged.push(String(message)));
  });
  afterAll(() => jest.restoreAllMocks());
  const expectNoServerErrorLogged = () => expect(logged.slice(0, 3)).toEqual([]);

  describe('the database cut off under load by a TCP proxy, then restored on the same port', () => {
    let proxy: TcpProxy;
    let service: Service;

    beforeAll(async () => {
      const target = new URL(testDatabaseUri());
      proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port) });
      service = await Service.start(proxy.rewrite(testDatabaseUri()));
      await resetDatabase(service.t.connection);
    });
    afterAll(async () => {
      await service?.close();
      await proxy?.stop();
    });

    it('fails fast with a clear 503, readiness turns 503, recovers by itself, loses no acknowledged write', async () => {
      const before = Array.from({ length: 30 }, (_, i) => `cut-before-${i}`);
      await writeKeys(service, before);
      expect((await service.ready()).status).toBe(200);

      const load = startLoad(service, 'cut');
      await sleep(500);
      const cutAt = Date.now();
      await proxy.cut();

      const turnedUnready = await service.waitReady(503, 5000);
      expect((await service.ready()).body).toEqual({ status: 'unavailable', database: 'down' });
      expect((await service.call('GET', '/health/live')).status).toBe(200); // alive: no restart wanted
      await sleep(2500); // the outage, under load
      const restoredAt = Date.now();
      await proxy.restore();

      const recovery = await service.waitReady(200, 20_000);
      const readyAt = Date.now();
      await sleep(1000); // load after the outage
      const outcomes = await load.stop();
      process.stderr.write(
        `[db-faults ${KIND}] proxy cut: readiness 503 after ${turnedUnready} ms; restored: ready again after ${recovery} ms (monitoring restarts: ${service.t.app.get(ConnectionWatchdog).restarts}); ${summary(outcomes)}\n`,
      );

      expectNoServerErrorLogged();
      expectOutageHandled(outcomes, { downAt: cutAt, upAt: restoredAt, readyAt });

      const afterwards = Array.from({ length: 30 }, (_, i) => `cut-after-${i}`);
      await writeKeys(service, afterwards);
      const acknowledged = outcomes.filter((o) => o.op === 'write' && o.status === 200).map((o) => o.toolName!);
      await expectReadable(service, [...before, ...acknowledged, ...afterwards]);
    });
  });

  // FerretDB keeps its data in SQLite files: after SIGKILL and a restart on the same data dir every
  // acknowledged write must be there. mongo-java-server's memory backend loses everything when its
  // process stops, so there only the recovery is checked.
  // Against an external database (TEST_MONGODB_URI) the test still kills a FerretDB of its own.
  const OWN_KIND = KIND === 'mongo-java-server' ? 'mongo-java-server' : 'ferretdb';
  const keepsData = OWN_KIND === 'ferretdb';
  const killTitle = keepsData
    ? 'a FerretDB process SIGKILLed under load and restarted on the same port and data dir'
    : 'a mongo-java-server process SIGKILLed under load and restarted on the same port (recovery only; the data check is skipped: its memory backend loses every document on restart)';

  describe(killTitle, () => {
    let server: OwnServer | null = null;
    let dataDir: string | null = null;
    let service: Service | null = null;

    beforeAll(async () => {
      dataDir = keepsData ? await mkdtemp(join(tmpdir(), 'tas-faults-ferretdb-')) : null;
      server = await OwnServer.start(OWN_KIND, 0, dataDir);
      service = await Service.start(`${server.uri}/tas_test_faults_kill`);
    });
    afterAll(async () => {
      await service?.close();
      await server?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it(`fails fast with a clear 503 while it is down, recovers by itself${keepsData ? ', loses no acknowledged write' : ''}`, async () => {
      const before = Array.from({ length: 30 }, (_, i) => `kill-before-${i}`);
      await writeKeys(service!, before);

      const load = startLoad(service!, 'kill');
      await sleep(500);
      const killedAt = Date.now();
      const port = server!.port;
      await server!.kill();

      const turnedUnready = await service!.waitReady(503, 5000);
      await sleep(2500); // the outage, under load
      const restartAt = Date.now();
      server = await OwnServer.start(OWN_KIND, port, dataDir);
      const recovery = await service!.waitReady(200, 30_000);
      const readyAt = Date.now();
      await sleep(1000);
      const outcomes = await load.stop();
      process.stderr.write(
        `[db-faults ${OWN_KIND}] SIGKILL: readiness 503 after ${turnedUnready} ms; restarted in ${readyAt - restartAt - recovery} ms + ready again after ${recovery} ms (monitoring restarts: ${service!.t.app.get(ConnectionWatchdog).restarts}); ${summary(outcomes)}\n`,
      );

      expectNoServerErrorLogged();
      expectOutageHandled(outcomes, { downAt: killedAt, upAt: restartAt, readyAt });

      const afterwards = Array.from({ length: 30 }, (_, i) => `kill-after-${i}`);
      await writeKeys(service!, afterwards);
      if (keepsData) {
        const acknowledged = outcomes.filter((o) => o.op === 'write' && o.status === 200).map((o) => o.toolName!);
        await expectReadable(service!, [...before, ...acknowledged, ...afterwards]);
      } else {
        await expectReadable(service!, afterwards);
      }
    });
  });

  describe('graceful shutdown', () => {
    it('drains in-flight requests: 200 concurrent writes started before app.close() all complete with 200 and are stored, buffered hits flushed, close is prompt', async () => {
      const service = await Service.start(testDatabaseUri(), { BOOKKEEPING_FLUSH_MS: '60000' });
      let closed = false;
      try {
        await resetDatabase(service.t.connection);
        // Slow requests: each write waits at a gate inside the handler until close() has begun.
        const tools = service.t.app.get(ToolHealthService);
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
        const cooldown = { scope: 'PROJECT', scopeId: PROJECT, toolName: 'drain-cooldown', errorSignature: 'http-502', classification: 'INTERMITTENT' };
        expect((await service.call('POST', '/v1/cooldowns', cooldown)).status).toBe(200);
        const hit = await service.call('POST', '/v1/outcomes/failure', { toolName: 'drain-cooldown', context: { projectId: PROJECT }, code: 'BACKEND_FAILED', errorSignature: 'http-502' });
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

/**
 * A database server of our own, through the project's CLI (`node scripts/db/servers.mjs start`),
 * so the test can SIGKILL the server process itself (the CLI prints its pid) and start it again.
 */
class OwnServer {
  private constructor(
    private readonly wrapper: ChildProcess,
    readonly uri: string,
    readonly pid: number,
    private readonly exited: Promise<void>,
  ) {}

  get port(): number {
    return Number(new URL(this.uri).port);
  }

  static start(kind: string, port: number, dataDir: string | null): Promise<OwnServer> {
    const args = [join(ROOT, 'scripts/db/servers.mjs'), 'start', kind, '--quiet'];
    if (port) args.push('--port', String(port));
    if (dataDir) args.push('--data-dir', dataDir);
    const wrapper = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => wrapper.once('exit', () => resolve()));
    let stderr = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        wrapper.kill('SIGTERM');
        reject(new Error(`${kind} did not start within 60 s:\n${stderr}`));
      }, 60_000);
      wrapper.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const m = /ready: (mongodb:\/\/\S+) \(pid (\d+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(new OwnServer(wrapper, m[1], Number(m[2]), exited));
        }
      });
      wrapper.stdout!.resume();
      wrapper.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${kind} exited (${code}) before it was ready:\n${stderr}`));
      });
    });
  }

  /** SIGKILL to the database server process itself; the CLI wrapper then exits on its own. */
  async kill(): Promise<void> {
    process.kill(this.pid, 'SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.wrapper.exitCode === null && this.wrapper.signalCode === null) this.wrapper.kill('SIGTERM');
    await this.exited;
  }
}
