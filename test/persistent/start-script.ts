import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The plumbing of the persistent tests that run `npm start` as an operator would (P34, P35): free
 * ports on 127.0.0.1, the process tree read from /proc (a process counts as the same one only
 * while its start time is unchanged), and `node scripts/start.mjs` on a temporary START_DATA_DIR
 * with the database on any free port.
 */
export const ROOT = join(__dirname, '..', '..');
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Proc {
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
export function tree(root: number): Proc[] {
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

export const alive = (procs: Proc[]) => procs.filter((p) => existsSync(`/proc/${p.pid}`) && stat(p.pid)?.startTime === p.startTime);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment of a test's `npm start`: its own ports and data directory, nothing inherited that would redirect it. */
export function startEnv(port: number, dataDir: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_DB_PORT: '0', // any free port: no clash with a running `npm start`
    START_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  for (const name of ['MONGODB_URI', 'API_KEYS', 'TEST_MONGODB_URI', 'DB_SINGLE_WRITER']) delete env[name];
  return env;
}

/** `node scripts/start.mjs` (what `npm start` execs, P34) on its own port and data directory. */
export class StartScript {
  output = '';
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  private constructor(
    readonly proc: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
  ) {
    proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => proc.once('exit', (code, sig) => resolve({ code, signal: sig })));
  }

  /** `ownProcessGroup`: the script leads a process group, as in a terminal, so a test can signal the whole group. */
  static async start(dataDir: string, extraEnv: Record<string, string> = {}, ownProcessGroup = false): Promise<StartScript> {
    const port = await freePort();
    const proc = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      env: startEnv(port, dataDir, extraEnv),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: ownProcessGroup,
    });
    const script = new StartScript(proc, port, dataDir);
    await script.waitReady();
    return script;
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The development keys `npm start` generated in the data directory. */
  keys(): Record<string, string> {
    return JSON.parse(readFileSync(join(this.dataDir, 'dev-api-keys.json'), 'utf8')) as Record<string, string>;
  }

  /** The embedded database's port, from the start script's log line. */
  databasePort(): number {
    const m = /embedded mongo-java-server \(H2\) at mongodb:\/\/127\.0\.0\.1:(\d+)/.exec(this.output);
    if (!m) throw new Error(`no database port in the output:\n${this.output}`);
    return Number(m[1]);
  }

  /** The embedded database process running now (a child of the start script), if any. */
  database(): Proc | undefined {
    return tree(this.proc.pid!).find((p) => p.cmd.includes('mongo-java-server-launcher.jar') && p.cmd.includes('--h2'));
  }

  async waitReady(timeoutMs = 240_000): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      if (!this.running) throw new Error(`npm start exited before it was ready:\n${this.output}`);
      try {
        if ((await fetch(this.url('/health/ready'))).status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(250);
    }
    throw new Error(`npm start was not ready within ${timeoutMs / 1000} s:\n${this.output}`);
  }

  /** Whatever a failed run left: every process of the tree, SIGKILLed. */
  killAll(): void {
    if (!this.proc.pid) return;
    for (const p of alive(tree(this.proc.pid))) process.kill(p.pid, 'SIGKILL');
  }
}
