import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { StartScript, sleep, tree } from './start-script';

/**
 * P126: `npm start` keeps the service up when its embedded database dies. The
 * database process is SIGKILLed twice; meanwhile every request is answered — 503 while the
 * database is away, never a connection error — the start script restarts the database on the
 * same port and file, and the same service (same pid) answers 2xx again by itself. Printed: how
 * long after the kill the database answered a ping again and how long after that the service
 * answered 2xx. On the start script that stopped the service with its database, the first kill
 * ended `npm start` (exit 1) and every later request was refused.
 */
jest.setTimeout(300_000);

/** When a TCP connection to the port was accepted, or null if refused. */
const accepts = (port: number) =>
  new Promise<number | null>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(Date.now());
    });
    socket.once('error', () => resolve(null));
  });

async function pings(port: number): Promise<boolean> {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}`, { directConnection: true, serverSelectionTimeoutMS: 2000 });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close(true).catch(() => undefined);
  }
}

const KILLS = 2;
const OUTAGE_LIMIT_MS = 60_000; // bounds a failing run; the figures are printed, not asserted

describe('`npm start` with its embedded database killed', () => {
  let dataDir: string;
  let start: StartScript | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tas-db-supervision-'));
  });

  afterAll(async () => {
    start?.killAll();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is away, restarts it, and answers 2xx again without a restart of `npm start`', async () => {
    start = await StartScript.start(dataDir);
    const s = start;
    const key = s.keys()['dispatcher'];
    const service = () => tree(s.proc.pid!).find((p) => p.cmd.includes('dist/main.js'));
    const servicePidBefore = service()?.pid;
    expect(servicePidBefore).toBeDefined();
    const dbPort = s.databasePort();

    /** One lookup through the database: its status, or the connection error's code. */
    const lookup = async (): Promise<number | string> => {
      try {
        const res = await fetch(s.url('/v1/tools/supervised/availability?projectId=p-sup'), { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        return res.status;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        return cause?.code ?? String(error);
      }
    };
    expect(await lookup()).toBe(200);

    for (let round = 1; round <= KILLS; round++) {
      const victim = s.database();
      expect(victim).toBeDefined();
      const killedAt = Date.now();
      process.kill(victim!.pid, 'SIGKILL');

      // The database's own readiness, watched beside the service: its port accepts again (the
      // killed process is gone by then), and answers a ping.
      let databaseBackAt: number | null = null;
      const watchDatabase = (async () => {
        while (existsSync(`/proc/${victim!.pid}`) && Date.now() - killedAt < OUTAGE_LIMIT_MS) await sleep(10);
        while (databaseBackAt === null && Date.now() - killedAt < OUTAGE_LIMIT_MS) {
          const acceptedAt = await accepts(dbPort);
          if (acceptedAt !== null && (await pings(dbPort))) databaseBackAt = acceptedAt;
          else await sleep(20);
        }
      })();

      // A lookup every 100 ms, each on its own (one may take its whole deadline): the earliest
      // one sent that answered 2xx dates the service's recovery to within 100 ms.
      const answers = new Map<number | string, number>();
      const probes: Promise<void>[] = [];
      let serviceBackAt: number | null = null;
      while (serviceBackAt === null && Date.now() - killedAt < OUTAGE_LIMIT_MS && s.running) {
        const sentAt = Date.now();
        probes.push(
          lookup().then((answer) => {
            answers.set(answer, (answers.get(answer) ?? 0) + 1);
            if (answer === 200) serviceBackAt = Math.min(serviceBackAt ?? sentAt, sentAt);
          }),
        );
        await sleep(100);
      }
      await Promise.all(probes);
      await watchDatabase;
      process.stdout.write(
        `db-supervision: kill ${round}: answers ${JSON.stringify(Object.fromEntries(answers))}; ` +
          `database answering ${databaseBackAt === null ? 'never' : `${databaseBackAt - killedAt} ms`} after the kill, ` +
          `service 2xx ${serviceBackAt === null ? 'never' : `${serviceBackAt - killedAt} ms`} after the kill` +
          (databaseBackAt !== null && serviceBackAt !== null ? ` (${serviceBackAt - databaseBackAt} ms after the database)` : '') +
          '\n',
      );
      expect(s.running).toBe(true);
      expect([...answers.keys()].filter((a) => typeof a === 'string')).toEqual([]); // no connection error
      expect([...answers.keys()].filter((a) => a !== 200 && a !== 503)).toEqual([]);
      expect(answers.get(503)).toBeGreaterThan(0);
      expect(serviceBackAt).not.toBeNull();
      expect(databaseBackAt).not.toBeNull();
      expect(service()?.pid).toBe(servicePidBefore); // the same service, never restarted
    }
    expect(s.output).toContain('the embedded database stopped unexpectedly');

    process.kill(s.proc.pid!, 'SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
  });
});
