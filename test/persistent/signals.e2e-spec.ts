import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

/**
 * Issue 10, item 6 (P34): `npm start` stops like a service. SIGINT or SIGTERM sent to the npm
 * process alone — not to its process group, as a process manager or a script would send it —
 * stops the service and its embedded database; after 10 s no process of the tree that npm
 * started is left. The same holds when the start script itself is SIGKILLed. The tree (npm, start script, database, service) is collected from /proc
 * before the signal; a process counts as the same one only while its start time is unchanged.
 */
jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Proc {
  pid: number;
  startTime: string;
  cmd: string;
}

function stat(pid: number): { ppid: number; startTime: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
    return { ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return null; // gone
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** `root` and all its descendants now. */
function tree(root: number): Proc[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(name)]);
  }
  const out: Proc[] = [];
  const visit = (pid: number) => {
    const s = stat(pid);
    if (!s) return;
    out.push({ pid, startTime: s.startTime, cmd: cmdline(pid) });
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

const alive = (procs: Proc[]) => procs.filter((p) => existsSync(`/proc/${p.pid}`) && stat(p.pid)?.startTime === p.startTime);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, npm: ChildProcess, output: () => string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 240_000) {
    if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start exited before it was ready:\n${output()}`);
    try {
      if ((await fetch(url)).status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`npm start was not ready within 240 s:\n${output()}`);
}

// SIGINT and SIGTERM go to the npm process; SIGKILL goes to the start script (npm's child): it
// cannot forward anything, so the database (stdin EOF) and the service (IPC channel closed) must
// notice by themselves.
const CASES = [
  { signal: 'SIGINT', target: 'npm' },
  { signal: 'SIGTERM', target: 'npm' },
  { signal: 'SIGKILL', target: 'start script' },
] as const;

describe.each(CASES)('$signal to the $target process of `npm start`', ({ signal, target }) => {
  let dataDir: string;
  let procs: Proc[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tas-signals-'));
  });

  afterAll(async () => {
    for (const p of alive(procs)) process.kill(p.pid, 'SIGKILL'); // a failed run leaves nothing behind
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops the service and its embedded database; no process left after 10 s', async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_DB_PORT: '0', // any free port: no clash with a running `npm start`
      START_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };
    for (const name of ['MONGODB_URI', 'API_KEYS', 'TEST_MONGODB_URI']) delete env[name];
    let output = '';
    const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      npm.once('exit', (code, sig) => resolve({ code, signal: sig })),
    );

    const readyAfter = await waitReady(`http://127.0.0.1:${port}/health/ready`, npm, () => output);
    procs = tree(npm.pid!);
    const names = procs.map((p) => p.cmd);
    // npm, the start script, the H2 server and the service (no shell left in between: P34)
    expect(names.some((c) => c.includes('scripts/start.mjs'))).toBe(true);
    expect(names.some((c) => c.includes('mongo-java-server-launcher.jar') && c.includes('--h2'))).toBe(true);
    expect(names.some((c) => c.includes('dist/main.js'))).toBe(true);

    const victim = target === 'npm' ? npm.pid! : procs.find((p) => p.cmd.includes('scripts/start.mjs'))!.pid;
    const sentAt = Date.now();
    process.kill(victim, signal);
    let left = alive(procs);
    while (left.length && Date.now() - sentAt < 10_000) {
      await sleep(100);
      left = alive(procs);
    }
    const stoppedAfter = Date.now() - sentAt;
    process.stdout.write(
      `signals: ${signal} to ${target} pid ${victim}: ready after ${readyAfter} ms; ${procs.length} processes ` +
        `(${procs.map((p) => p.cmd.split(' ').slice(0, 2).join(' ')).join(', ')}) ` +
        (left.length ? `${left.length} still alive after 10 s` : `all gone after ${stoppedAfter} ms`) +
        '\n',
    );
    expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
    const how = await exited;
    if (signal === 'SIGKILL') {
      expect(how.code).not.toBe(0); // npm reports its child's death
      expect(output).toContain('start script gone: stopping the service');
    } else {
      expect(how.code).toBe(0);
      expect(output).toContain(`${signal}: stopping the service and the database`);
    }
  });
});
