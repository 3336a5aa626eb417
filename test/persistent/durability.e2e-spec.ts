import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { KEYS, TestApp, createTestApp } from '../support/test-app';
import { EmbeddedServer } from './embedded-server';

/**
 * Issue 10, item 1 (P30): a write the service acknowledged survives a crash of the embedded
 * database. The service reports a failure (200), the H2 server is SIGKILLed ~200 ms later (no
 * shutdown hook, no final commit), started again on the same file and port; the service, still
 * running, reconnects by itself and answers with the write, and the raw file holds it too.
 */
jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the embedded database keeps an acknowledged write through a SIGKILL', () => {
  let dir: string;
  let server: EmbeddedServer | null = null;
  let t: TestApp | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tas-durability-'));
    server = await EmbeddedServer.start(dir);
    process.env.TEST_MONGODB_URI = `${server.uri}/tas_test_durability`;
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the write after the database was killed 200 ms after the acknowledgement and restarted', async () => {
    const scopeId = `p-durable-${Date.now()}`;
    await t!.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'PROJECT', scopeId, toolName: 'mcp_search', code: 'BACKEND_UNREACHABLE', source: 'mcp' })
      .expect(200);
    const ackedAt = Date.now();
    await sleep(200);
    const port = server!.port;
    await server!.kill();
    const killedAfter = Date.now() - ackedAt;
    server = await EmbeddedServer.start(dir, port);
    process.stdout.write(`durability: database SIGKILLed ${killedAfter} ms after the acknowledged write; restarted on the same file\n`);

    // The raw file: some document of the service's database names the scope.
    const client = await MongoClient.connect(server.uri, { directConnection: true });
    try {
      const db = client.db('tas_test_durability');
      let found = 0;
      for (const collection of await db.collections()) {
        for (const doc of await collection.find({}).toArray()) if (JSON.stringify(doc).includes(scopeId)) found++;
      }
      expect(found).toBeGreaterThan(0);
    } finally {
      await client.close();
    }

    // The running service, reconnected by itself, answers with it.
    let res: { status: number; body: any } = { status: 0, body: null };
    for (let attempt = 0; attempt < 40; attempt++) {
      res = await t!.http.get(`/v1/tools/mcp_search/availability?projectId=${scopeId}`).set('x-api-key', KEYS.dispatcher);
      if (res.status === 200) break;
      await sleep(250);
    }
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'DOWN', winner: { scope: 'PROJECT', scopeId, code: 'BACKEND_UNREACHABLE' } });
  });
});
