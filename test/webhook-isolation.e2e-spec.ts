import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { EventRelay } from '../src/write-path/event-relay.service';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Each endpoint's queue advances on its own: receivers that hang, answer slowly or fail delay only
 * their own events, never a healthy endpoint's (P220). The delivery worker runs on its real timer
 * here, as in production. The bounds are generous (a shared machine); `npm run bench` measures.
 */

type Behaviour = 'ok' | 'hang' | 'fail' | { slowMs: number };

/** One local server; each path is an endpoint with its own behaviour and its own log of bodies. */
class Receivers {
  readonly received = new Map<string, { at: number; body: string }[]>();
  readonly behaviour = new Map<string, Behaviour>();
  private readonly open = new Set<ServerResponse>();
  private readonly server: Server;
  private base = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        const log = this.received.get(path) ?? [];
        log.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
        this.received.set(path, log);
        const how = this.behaviour.get(path) ?? 'ok';
        if (how === 'hang') {
          this.open.add(res);
          return;
        }
        if (how === 'fail') return void res.writeHead(500).end('down');
        if (how === 'ok') return void res.writeHead(200).end('thanks');
        this.open.add(res);
        setTimeout(() => {
          this.open.delete(res);
          res.writeHead(200).end('late thanks');
        }, how.slowMs);
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string, how: Behaviour): string {
    this.behaviour.set(path, how);
    return `${this.base}${path}`;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhook deliveries are isolated per endpoint', () => {
  let t: TestApp;
  let receivers: Receivers;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_POLL_MS: '100', WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '60000' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    receivers = new Receivers();
    await receivers.start();
  });
  afterEach(() => receivers.stop());

  const register = (url: string) => t.http.post('/v1/webhook-endpoints').set('x-api-key', KEYS.admin).send({ url }).expect(201);
  const markDown = (toolName: string) =>
    t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName, code: 'BACKEND_UNREACHABLE', source: 'probe' })
      .expect(200);
  const waitFor = async (what: () => boolean, withinMs: number): Promise<number> => {
    const started = Date.now();
    while (!what()) {
      if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Date.now() - started;
  };
  const tools = (path: string) =>
    (receivers.received.get(path) ?? []).map((r) => (JSON.parse(r.body) as { data: { toolName: string } }).data.toolName);

  it('a healthy endpoint gets its event promptly beside 20 hanging ones, a slow one and a failing one', async () => {
    for (let i = 0; i < 20; i++) await register(receivers.url(`/hang-${i}`, 'hang'));
    await register(receivers.url('/slow', { slowMs: 3000 }));
    await register(receivers.url('/fail', 'fail'));
    await register(receivers.url('/healthy', 'ok'));

    await markDown('first_tool');
    await t.app.get(EventRelay).drain();
    // Every receiver is reached, the hanging ones included (each holds its own slot only).
    await waitFor(() => receivers.received.get('/healthy')?.length === 1, 5000);
    await waitFor(() => [...Array(20).keys()].every((i) => receivers.received.get(`/hang-${i}`)?.length === 1), 5000);

    // The hanging, slow and failing receivers still hold their first event: a new one reaches the healthy endpoint alone.
    await markDown('second_tool');
    await t.app.get(EventRelay).drain();
    const elapsed = await waitFor(() => receivers.received.get('/healthy')?.length === 2, 3000);
    expect(elapsed).toBeLessThan(3000);
    expect(tools('/healthy')).toEqual(['first_tool', 'second_tool']);
    expect(receivers.received.get('/fail')?.length).toBe(1); // retried later on its own schedule
  });

  it('slow receivers get their events in order, one at a time, while a healthy one is not held', async () => {
    const slow = ['/slow-0', '/slow-1', '/slow-2', '/slow-3'];
    for (const path of slow) await register(receivers.url(path, { slowMs: 800 }));
    await register(receivers.url('/healthy', 'ok'));
    for (const tool of ['a_tool', 'b_tool', 'c_tool']) await markDown(tool);
    await t.app.get(EventRelay).drain();

    await waitFor(() => receivers.received.get('/healthy')?.length === 3, 1500);
    for (const path of slow) expect(receivers.received.get(path)?.length ?? 0).toBeLessThan(3);
    await waitFor(() => slow.every((path) => receivers.received.get(path)?.length === 3), 8000);
    for (const path of slow) {
      expect(tools(path)).toEqual(['a_tool', 'b_tool', 'c_tool']);
      const times = receivers.received.get(path)!.map((r) => r.at);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(700);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(700);
    }
  });
});
