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
 * The history checker tier on mongo-java-server's memory backend, the e2e tier's server (P119;
 * case 3 of the D21 review): four service processes, concurrent diagnoses to one key and to several,
 * every acknowledged history item stored exactly once at the position its version names. Before
 * P118 a torn read (new `version`, old `history`) let a guarded write build on a state no write
 * produced and one acknowledged write in 256 was lost about every other run.
 */
jest.setTimeout(300_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const BASE = { HISTORY_LIMIT_DEFAULT: String(HISTORY_LIMIT), BOOKKEEPING_FLUSH_MS: '200' };
const DB = 'tas_test_history_memory';

describe('history checker on the memory backend (P118, P119)', () => {
  let server: OwnServer;
  let direct: MongoClient;
  let services: ServiceProcess[] = [];
  let targets: (Target & { service: ServiceProcess })[] = [];

  beforeAll(async () => {
    server = await OwnServer.start('history-memory', 'mongo-java-server');
    server.useForTestApps(DB);
    direct = await MongoClient.connect(server.uri(DB));
    services = [];
    for (let i = 0; i < 4; i++) services.push(await ServiceProcess.start({ ...BASE, MONGODB_URI: server.uri(DB) }));
    targets = services.map((service) => ({ url: service.url, running: true, service }));
  });
  afterAll(async () => {
    for (const s of services) await s.stop();
    await direct?.close();
    await server?.destroy();
  });

  it('case 3: four instances, 256 concurrent diagnoses to one key, twice: nothing lost', async () => {
    for (const run of ['one-a', 'one-b']) {
      const { acks } = await runWriters({ targets: () => targets, toolNames: [`mem-${run}`], writers: 64, writesPerWriter: 4, run });
      expect(await checkHistory(direct.db(DB), acks, run)).toEqual(clean(acks.length));
      expect(acks.length).toBeGreaterThan(0);
    }
  });

  it('several keys, an instance SIGKILLed and the database paused meanwhile; hit totals exact', async () => {
    await openCooldown(targets[0], 'mem-hits');
    const tools = Array.from({ length: 6 }, (_, i) => `mem-many-${i}`);
    const writers = runWriters({ targets: () => targets, toolNames: tools, writers: 24, writesPerWriter: 12, run: 'many' });
    const hits = Promise.all([reportHits(targets[0], 'mem-hits', 40), reportHits(targets[1], 'mem-hits', 40)]);
    await sleep(1000);
    await targets[3].service.kill();
    targets[3].running = false;
    await sleep(1000);
    server.freeze();
    await sleep(2000);
    server.thaw();
    const { acks } = await writers;
    const reports = totalHits(await hits);
    await targets[0].service.stop(); // the final flush (D10b)
    await targets[1].service.stop();
    expect(await checkHistory(direct.db(DB), acks, 'many')).toEqual(clean(acks.length));
    expect(hitsVerdict(await storedHits(direct.db(DB), 'mem-hits'), reports)).toBe('exact within the answered reports');
  });
});
