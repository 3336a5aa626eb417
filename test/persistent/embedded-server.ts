import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * The embedded default (P29) as `npm start` runs it: mongo-java-server on its H2 backend, on a
 * file in `dataDir`, committing per write (P30). Started through the project's CLI
 * (`node scripts/db/servers.mjs start`), which prints the server's pid, so a test can SIGKILL the
 * database process itself, then start it again on the same file.
 */
export class EmbeddedServer {
  private constructor(
    private readonly wrapper: ChildProcess,
    readonly uri: string,
    readonly pid: number,
    private readonly exited: Promise<void>,
  ) {}

  get port(): number {
    return Number(new URL(this.uri).port);
  }

  static start(dataDir: string, port = 0): Promise<EmbeddedServer> {
    const args = [join(ROOT, 'scripts/db/servers.mjs'), 'start', 'mongo-java-server-h2', '--data-dir', dataDir, '--quiet'];
    if (port) args.push('--port', String(port));
    const wrapper = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => wrapper.once('exit', () => resolve()));
    let stderr = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        wrapper.kill('SIGTERM');
        reject(new Error(`the H2 server did not start within 60 s:\n${stderr}`));
      }, 60_000);
      wrapper.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const m = /ready: (mongodb:\/\/\S+) \(pid (\d+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(new EmbeddedServer(wrapper, m[1], Number(m[2]), exited));
        }
      });
      wrapper.stdout!.resume();
      wrapper.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the H2 server exited (${code}) before it was ready:\n${stderr}`));
      });
    });
  }

  /** SIGKILL to the database process itself (a crash: no shutdown hook, no final commit). */
  async kill(): Promise<void> {
    process.kill(this.pid, 'SIGKILL');
    await this.exited;
  }

  /** A clean stop (SIGTERM: the launcher's shutdown hook commits and closes the file). */
  async stop(): Promise<void> {
    if (this.wrapper.exitCode === null && this.wrapper.signalCode === null) this.wrapper.kill('SIGTERM');
    await this.exited;
  }
}
