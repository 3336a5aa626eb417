import { MongoClient } from 'mongodb';
import {
  HISTORY_LIMIT,
  Target,
  checkHistory,
  clean,
  hitsVerdict,
  openCooldown,
  reportHits,
  runWriters,
  storedHits,
  totalHits,
} from '../support/history-checker';
import { OwnServer } from '../support/own-server';
import { ServiceProcess } from '../support/service-process';

/**
 * The history checker tier on the embedded H2 server (P119; cases 1 and 2 of the D21 review): service
 * processes share one database, concurrent writers record every acknowledged diagnosis, faults
 * are injected, and afterwards every acknowledged history item is there exactly once, at the
 * position its version names. Before P117 the embedded database ran single-writer (writes by
 * `_id` alone behind a writer lease) and lost acknowledged writes in the first two cases.
 */
jest.setTimeout(300_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The settings of the retired single-writer mode (P40), with a short lease: the old code honours them, today's ignores them. */
const OLD_SINGLE_WRITER = { DB_SINGLE_WRITER: 'true', WRITER_LEASE_TTL_MS: '2000', WRITER_LEASE_RENEW_MS: '500' };
const BASE = { HISTORY_LIMIT_DEFAULT: String(HISTORY_LIMIT), BOOKKEEPING_FLUSH_MS: '200' };

describe('history checker on the embedded H2 server (P117, P119)', () => {
  let server: OwnServer;
  let direct: MongoClient;
  const started: ServiceProcess[] = [];
  const start = async (db: string, env: Record<string, string> = {}) => {
    const s = await ServiceProcess.start({ ...BASE, MONGODB_URI: server.uri(db), ...env });
    started.push(s);
    return s;
  };

  beforeAll(async () => {
    server = await OwnServer.start('history');
    server.useForTestApps('tas_test_history');
    direct = await MongoClient.connect(server.uri('tas_test_history'), { serverSelectionTimeoutMS: 30_000 });
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.stop();
  });
  afterAll(async () => {
    await direct?.close();
    await server?.destroy();
  });

  it('case 1: an instance paused past the lease does not overwrite what the other acknowledged meanwhile', async () => {
    const db = 'tas_test_history_pause';
    const a = await start(db, OLD_SINGLE_WRITER);
    const b = await start(db, OLD_SINGLE_WRITER);
    const targets: Target[] = [
      { url: a.url, running: true },
      { url: b.url, running: true },
    ];
    const writers = runWriters({ targets: () => targets, toolNames: ['pause-one'], writers: 8, writesPerWriter: 30, run: 'pause' });
    for (let round = 0; round < 2; round++) {
      await sleep(1500);
      a.freeze(); // past the old lease's 2 s TTL: the other instance took over and wrote
      await sleep(3500);
      a.thaw();
    }
    const { acks } = await writers;
    const verdict = await checkHistory(direct.db(db), acks, 'pause');
    expect(verdict).toEqual(clean(acks.length));
    expect(acks.length).toBeGreaterThan(0);
  });

  it('case 2: instances started with different DB_SINGLE_WRITER values lose nothing', async () => {
    const db = 'tas_test_history_mixed';
    const a = await start(db, OLD_SINGLE_WRITER);
    const b = await start(db, { DB_SINGLE_WRITER: 'false' });
    const targets: Target[] = [
      { url: a.url, running: true },
      { url: b.url, running: true },
    ];
    const { acks } = await runWriters({ targets: () => targets, toolNames: ['mixed-one'], writers: 16, writesPerWriter: 16, run: 'mixed' });
    expect(await checkHistory(direct.db(db), acks, 'mixed')).toEqual(clean(acks.length));
    expect(acks.length).toBeGreaterThan(0);
  });

  it('three instances on several keys: an instance SIGKILLed, the database SIGKILLed and restarted, then paused; hit totals exact', async () => {
    const db = 'tas_test_history_faults';
    const [a, b, c] = [await start(db), await start(db), await start(db)];
    const targets: (Target & { service: ServiceProcess })[] = [a, b, c].map((service) => ({ url: service.url, running: true, service }));
    await openCooldown(targets[0], 'faults-hits');
    const tools = ['faults-1', 'faults-2', 'faults-3', 'faults-4'];
    const writers = runWriters({ targets: () => targets, toolNames: tools, writers: 12, writesPerWriter: 25, run: 'faults' });
    // Hits through the two instances that stop gracefully (a SIGKILL loses up to one flush
    // interval of buffered hits by design, D10b).
    const hits = Promise.all([reportHits(targets[0], 'faults-hits', 40), reportHits(targets[1], 'faults-hits', 40)]);
    await sleep(1500);
    await c.kill();
    targets[2].running = false;
    await sleep(1000);
    await server.kill();
    await sleep(500);
    await server.restart();
    await sleep(1500);
    server.freeze();
    await sleep(2000);
    server.thaw();
    const { acks } = await writers;
    const reports = totalHits(await hits);
    await a.stop(); // the final flush of each (D10b)
    await b.stop();
    expect(await checkHistory(direct.db(db), acks, 'faults')).toEqual(clean(acks.length));
    expect(hitsVerdict(await storedHits(direct.db(db), 'faults-hits'), reports)).toBe('exact within the answered reports');
    expect(acks.length).toBeGreaterThan(0);
  });
});
