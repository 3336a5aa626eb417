import { Logger } from '@nestjs/common';
import { MongoClient } from 'mongodb';
import { LEASE_COLLECTION, WriterLease } from '../../src/persistence/writer-lease';
import { NOT_WRITER_OTHER_HOLDS } from '../../src/ops/readiness.service';
import { OwnServer } from '../support/own-server';
import { KEYS, TestApp, createTestApp } from '../support/test-app';

/**
 * Issue 10, item 2 (P40): on a single-writer database (DB_SINGLE_WRITER=true, D3) a second
 * instance stays unready and refuses requests, saying why, until the first stops; on a
 * multi-writer database nothing changes. Two Nest applications on one embedded H2 server.
 */
jest.setTimeout(90_000);

const DB = 'tas_test_writer_lease';
const SINGLE = { DB_SINGLE_WRITER: 'true', WRITER_LEASE_TTL_MS: '20000', WRITER_LEASE_RENEW_MS: '200' };
const MESSAGE = /^another instance holds the writer lease on this embedded database \(holder \S+, expires \d{4}-\d\d-\d\dT[\d:.]+Z\)/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const markDown = (toolName: string) => ({ scope: 'PROJECT', scopeId: 'p-lease', toolName, code: 'BACKEND_UNREACHABLE', source: 'lease' });

async function waitReady(t: TestApp, withinMs = 30_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const res = await t.http.get('/health/ready');
    if (res.status === 200) return;
    if (Date.now() - start > withinMs) throw new Error(`not ready within ${withinMs} ms: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
}

describe('writer lease on the embedded database (P40)', () => {
  let server: OwnServer;
  let direct: MongoClient;
  const open: TestApp[] = [];
  const warned: string[] = [];
  const start = async (env: Record<string, string>) => {
    const t = await createTestApp({ env: { MONGODB_URI: server.uri(DB), ...env } });
    open.push(t);
    return t;
  };
  const close = async (t: TestApp) => {
    open.splice(open.indexOf(t), 1);
    await t.close();
  };
  const lease = () =>
    direct
      .db(DB)
      .collection(LEASE_COLLECTION)
      .findOne({ _id: 'writer' as never });

  beforeAll(async () => {
    server = await OwnServer.start('lease');
    server.useForTestApps(DB);
    direct = await MongoClient.connect(server.uri(DB));
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warned.push(String(message)));
  });
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
    await direct.db(DB).collection(LEASE_COLLECTION).deleteMany({});
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await direct?.close();
    await server?.destroy();
  });

  it('a second single-writer instance is unready with the reason, refuses requests, and takes over once the first stops', async () => {
    const first = await start(SINGLE);
    await first.http.get('/health/ready').expect(200, { status: 'ok', database: 'up' });
    await first.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.dispatcher).send(markDown('lease-a')).expect(200);
    const holder = first.app.get(WriterLease).holder;
    expect(await lease()).toMatchObject({ holder });

    const second = await start(SINGLE);
    const unready = await second.http.get('/health/ready').expect(503);
    // P139: open without a key, so it names no host or process; the keyed 503 below and the log do.
    expect(unready.body).toEqual({ status: 'unavailable', database: 'up', message: NOT_WRITER_OTHER_HOLDS });
    // It says so in its log too, and answers no request but the probes.
    expect(warned.some((line) => line.includes('not ready: another instance holds the writer lease on this embedded database'))).toBe(true);
    const refused = await second.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send(markDown('lease-b'))
      .expect(503);
    expect(refused.body).toEqual({ statusCode: 503, error: 'UNAVAILABLE', message: expect.stringMatching(MESSAGE) });
    expect(refused.body.message).toContain(`holder ${holder},`);
    await second.http.get('/health/live').expect(200);
    // Still refused after several renewals of the first one's lease.
    await sleep(1000);
    expect((await second.http.get('/health/ready')).status).toBe(503);

    await close(first);
    // Released on shutdown (not left to expire: its TTL is 20 s): free, or already the second's.
    const after = await lease();
    expect(after === null || after.holder === second.app.get(WriterLease).holder).toBe(true);
    await waitReady(second);
    expect(await lease()).toMatchObject({ holder: second.app.get(WriterLease).holder });
    await second.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.dispatcher).send(markDown('lease-b')).expect(200);
    const read = await second.http
      .post('/v1/availability/lookup')
      .set('x-api-key', KEYS.dispatcher)
      .send({ toolNames: ['lease-a', 'lease-b'], context: { projectId: 'p-lease' } })
      .expect(200);
    expect(read.body.map((e: { status: string }) => e.status)).toEqual(['DOWN', 'DOWN']);
  });

  it('a lease whose holder died without releasing it is taken over when it expires', async () => {
    // A holder that vanished (SIGKILL): its lease stays until expiresAt.
    await direct
      .db(DB)
      .collection(LEASE_COLLECTION)
      .insertOne({ _id: 'writer' as never, holder: 'ghost:1:dead', expiresAt: new Date(Date.now() + 8000) }); // longer than an app's start on a loaded machine
    const t = await start(SINGLE);
    const unready = await t.http.get('/health/ready').expect(503);
    expect(unready.body.message).toBe(NOT_WRITER_OTHER_HOLDS);
    expect(JSON.stringify(unready.body)).not.toContain('ghost');
    await waitReady(t);
    expect(await lease()).toMatchObject({ holder: t.app.get(WriterLease).holder });
  });

  it('on a multi-writer database nothing changes: no lease, every instance ready', async () => {
    const multi = { DB_SINGLE_WRITER: 'false' };
    const a = await start(multi);
    const b = await start(multi);
    await a.http.get('/health/ready').expect(200, { status: 'ok', database: 'up' });
    await b.http.get('/health/ready').expect(200, { status: 'ok', database: 'up' });
    await b.http.post('/v1/health/mark-unavailable').set('x-api-key', KEYS.dispatcher).send(markDown('lease-multi')).expect(200);
    expect(await lease()).toBeNull();
  });
});
