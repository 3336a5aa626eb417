import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const START_TIMEOUT_MS = 60_000;

/** One run of `node scripts/db/servers.mjs start mongo-java-server-h2` (a CLI: jest's CommonJS cannot import the ESM library). */
interface Run {
  wrapper: ChildProcess;
  pid: number;
  exited: Promise<void>;
}

export type OwnServerKind = 'mongo-java-server-h2' | 'mongo-java-server';

/**
 * The persistent tier's database: an embedded H2 server of the test file's own (D2), in a fresh
 * data directory, which the test may SIGKILL, freeze (SIGSTOP) and thaw, or restart on the same
 * port and data. With kind `mongo-java-server` it is the memory backend instead (the e2e tier's
 * server), whose data a restart loses. `uri(db)` names a database whose name contains "test" (test-app's rule), and
 * `useForTestApps()` points createTestApp's default MONGODB_URI at it.
 */
export class OwnServer {
  private run: Run | null = null;
  private frozen = false;

  private constructor(
    readonly dataDir: string,
    private port: number,
    readonly kind: OwnServerKind,
  ) {}

  static async start(label = 'own', kind: OwnServerKind = 'mongo-java-server-h2'): Promise<OwnServer> {
    const dataDir = await mkdtemp(join(tmpdir(), `tas-${label}-h2-`));
    const server = new OwnServer(dataDir, 0, kind);
    await server.restart();
    return server;
  }

  /** The database server process itself (not the CLI wrapper). */
  get pid(): number {
    return this.current().pid;
  }

  /** `mongodb://127.0.0.1:PORT/<db>`; the port stays the same across restarts. */
  uri(db = 'tas_test_persistent'): string {
    if (!/test/i.test(db)) throw new Error(`refusing database "${db}": a test database's name must contain "test"`);
    return `mongodb://127.0.0.1:${this.port}/${db}`;
  }

  get address(): { host: string; port: number } {
    return { host: '127.0.0.1', port: this.port };
  }

  useForTestApps(db?: string): void {
    process.env.TEST_MONGODB_URI = this.uri(db);
    process.env.TEST_DB_KIND = this.kind;
  }

  /** Starts the server (again, after kill) on the same port and data directory. */
  async restart(): Promise<void> {
    if (this.run) throw new Error('the server is running');
    const args = [join(ROOT, 'scripts/db/servers.mjs'), 'start', this.kind, '--quiet'];
    if (this.kind === 'mongo-java-server-h2') args.push('--data-dir', this.dataDir);
    if (this.port) args.push('--port', String(this.port));
    const wrapper = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => wrapper.once('exit', () => resolve()));
    let stderr = '';
    const { uri, pid } = await new Promise<{ uri: string; pid: number }>((resolve, reject) => {
      const timer = setTimeout(() => {
        wrapper.kill('SIGTERM');
        reject(new Error(`${this.kind} did not start within ${START_TIMEOUT_MS} ms:\n${stderr}`));
      }, START_TIMEOUT_MS);
      wrapper.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const m = /ready: (mongodb:\/\/\S+) \(pid (\d+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve({ uri: m[1], pid: Number(m[2]) });
        }
      });
      wrapper.stdout!.resume();
      wrapper.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${this.kind} exited (${code}) before it was ready:\n${stderr}`));
      });
    });
    this.port = Number(new URL(uri).port);
    this.run = { wrapper, pid, exited };
  }

  /** SIGKILL to the database process: no shutdown; the CLI wrapper then exits by itself. */
  async kill(): Promise<void> {
    const run = this.take();
    this.frozen = false;
    process.kill(run.pid, 'SIGKILL');
    await run.exited;
  }

  /** SIGSTOP: the process keeps its sockets open and answers nothing. */
  freeze(): void {
    process.kill(this.current().pid, 'SIGSTOP');
    this.frozen = true;
  }

  thaw(): void {
    if (!this.frozen || !this.run) return;
    process.kill(this.run.pid, 'SIGCONT');
    this.frozen = false;
  }

  /** Stops the server (SIGTERM to the wrapper, which stops the database) and removes its data. */
  async destroy(): Promise<void> {
    if (this.run) {
      this.thaw();
      const run = this.take();
      if (run.wrapper.exitCode === null && run.wrapper.signalCode === null) run.wrapper.kill('SIGTERM');
      await run.exited;
    }
    await rm(this.dataDir, { recursive: true, force: true });
  }

  private current(): Run {
    if (!this.run) throw new Error('the server is not running');
    return this.run;
  }

  private take(): Run {
    const run = this.current();
    this.run = null;
    return run;
  }
}
