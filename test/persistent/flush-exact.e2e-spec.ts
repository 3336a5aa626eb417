import { MongoClient } from 'mongodb';
import { BookkeepingBuffer } from '../../src/features/outcomes/bookkeeping-buffer.service';
import { OwnServer } from '../support/own-server';
import { TcpProxy } from '../support/tcp-proxy';
import { KEYS, TestApp, createTestApp } from '../support/test-app';

/**
 * Issue 10, item 5 and issue 13 (b2), P42: the bookkeeping flush is one bulk write, and a flush
 * whose reply is lost is not applied twice. The TCP proxy forwards the flush to the database and
 * drops its reply; the service sees a timeout and resends the same flush; the hit counts equal
 * the number of reports exactly.
 */
jest.setTimeout(90_000);

const DB = 'tas_test_flush_exact';
const PROJECT = 'p-flush';
const TOOLS = ['flush-a', 'flush-b', 'flush-c'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('exact bookkeeping flush after a lost reply (P42)', () => {
  let server: OwnServer;
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: MongoClient;

  beforeAll(async () => {
    server = await OwnServer.start('flush');
    server.useForTestApps(DB);
    proxy = await TcpProxy.start(server.address);
    t = await createTestApp({
      // Flushed only when the test says so; a lost reply surfaces after 1.5 s instead of 10.
      env: {
        MONGODB_URI: proxy.rewrite(server.uri(DB)),
        BOOKKEEPING_FLUSH_MS: '60000',
        DB_SOCKET_TIMEOUT_MS: '1500',
        DB_MONITOR_COMMANDS: 'true',
      },
    });
    direct = await MongoClient.connect(server.uri(DB)); // not through the proxy
  });
  afterAll(async () => {
    proxy?.heal();
    await t?.close();
    await direct?.close();
    await proxy?.stop();
    await server?.destroy();
  });

  const hitsInDb = async () => {
    const docs = await direct.db(DB).collection('tool_health').find({ scope: 'PROJECT', scopeId: PROJECT }).toArray();
    return Object.fromEntries(docs.map((d) => [d.toolName, d.cooldowns[0].hits]));
  };
  const report = async (toolName: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const res = await t.http
        .post('/v1/outcomes/failure')
        .set('x-api-key', KEYS.dispatcher)
        .send({ toolName, context: { projectId: PROJECT }, code: 'BACKEND_FAILED', errorSignature: 'http-502' })
        .expect(200);
      expect(res.body).toMatchObject({ spawn: false, reason: 'IN_COOLDOWN' });
    }
  };
  const waitReady = async () => {
    for (let i = 0; i < 200; i++) {
      if ((await t.http.get('/health/ready')).status === 200) return;
      await sleep(100);
    }
    throw new Error('not ready again');
  };

  it('a flush applied by the database but whose reply was lost is resent with its flush id and not counted twice', async () => {
    for (const toolName of TOOLS) {
      await t.http
        .post('/v1/cooldowns')
        .set('x-api-key', KEYS.admin)
        .send({ scope: 'PROJECT', scopeId: PROJECT, toolName, errorSignature: 'http-502', classification: 'INTERMITTENT' })
        .expect(200);
    }
    const buffer = t.app.get(BookkeepingBuffer);
    const reported: Record<string, number> = { 'flush-a': 3, 'flush-b': 5, 'flush-c': 1 };
    for (const toolName of TOOLS) await report(toolName, reported[toolName]);
    expect(await hitsInDb()).toEqual({ 'flush-a': 0, 'flush-b': 0, 'flush-c': 0 }); // buffered, not written

    // One bulk write for all three documents (issue 13, b2): counted from the driver's events.
    const commands: string[] = [];
    const onCommand = (event: { commandName: string; command: Record<string, unknown> }) => {
      const updates = (event.command.updates ?? []) as { u: { $push?: { appliedFlushIds?: unknown } } }[];
      // Bookkeeping updates only (the replace of the write below is an `update` command too).
      if (event.commandName === 'update' && updates.every((u) => u.u.$push?.appliedFlushIds))
        commands.push(`update of ${updates.length} documents`);
    };
    const client = t.connection.getClient();
    client.on('commandStarted', onCommand);

    proxy.dropReplies();
    await expect(buffer.flush()).rejects.toThrow();
    // The database did apply it: the reply alone was lost.
    expect(await hitsInDb()).toEqual(reported);
    expect(proxy.droppedBytes).toBeGreaterThan(0);
    proxy.heal();
    await waitReady();
    // A whole-document write in between (load, reduce, replace: D3) keeps the remembered ids.
    await t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.admin)
      .send({ scope: 'PROJECT', scopeId: PROJECT, toolName: 'flush-b', code: 'BACKEND_UNREACHABLE', source: 'flush' })
      .expect(200);

    // More reports after the fault, then the next flush: the lost one again (same id: skipped
    // by the documents that applied it), then the new hits.
    await report('flush-a', 2);
    await report('flush-c', 4);
    await buffer.flush();
    client.off('commandStarted', onCommand);
    expect(await hitsInDb()).toEqual({ 'flush-a': 5, 'flush-b': 5, 'flush-c': 5 });
    expect(commands).toEqual(['update of 3 documents', 'update of 3 documents', 'update of 2 documents']);

    // The service reads the same totals, and the stored flush ids are bounded and shared per flush.
    const entry = await t.http
      .get(`/v1/entries?scope=PROJECT&scopeId=${PROJECT}&toolName=flush-b`)
      .set('x-api-key', KEYS.admin)
      .expect(200);
    expect(entry.body.cooldowns[0].hits).toBe(5);
    expect(entry.body).not.toHaveProperty('appliedFlushIds');
    const docs = await direct.db(DB).collection('tool_health').find({ scope: 'PROJECT', scopeId: PROJECT }).toArray();
    const ids = Object.fromEntries(docs.map((d) => [d.toolName, d.appliedFlushIds]));
    expect(ids['flush-b']).toHaveLength(1);
    expect(ids['flush-a']).toEqual([ids['flush-b'][0], expect.any(String)]);
  });
});
