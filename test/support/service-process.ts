import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { testEnv } from './test-app';

const RUN_MAIN = join(__dirname, 'edge-run-main.cjs');
const START_TIMEOUT_MS = 120_000;

/**
 * One service instance as its own process (src/main.ts, compiled on the fly by
 * edge-run-main.cjs, no build needed), so a test can SIGSTOP, SIGCONT and SIGKILL it like an
 * operator's infrastructure would. The port is the one it printed ("listening on HOST:PORT").
 */
export class ServiceProcess {
  private frozen = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly exited: Promise<void>,
    readonly output: () => string,
  ) {}

  static async start(env: Record<string, string>): Promise<ServiceProcess> {
    const fullEnv = { ...process.env, ...testEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'development', ...env }) };
    const child = spawn(process.execPath, [RUN_MAIN], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const append = (d: Buffer) => void (output = (output + d.toString()).slice(-20_000));
    child.stderr!.on('data', append);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the service did not listen within ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      child.stdout!.on('data', (d: Buffer) => {
        append(d);
        const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the service exited before listening:\n${output}`));
      });
    });
    return new ServiceProcess(child, port, exited, () => output);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGSTOP: the process keeps its sockets and prepared writes, and does nothing. */
  freeze(): void {
    this.child.kill('SIGSTOP');
    this.frozen = true;
  }

  thaw(): void {
    if (!this.frozen) return;
    this.child.kill('SIGCONT');
    this.frozen = false;
  }

  /** SIGKILL: no shutdown, no final flush. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (shutdown hooks: the final bookkeeping flush), SIGKILL after `withinMs`. */
  async stop(withinMs = 30_000): Promise<void> {
    this.thaw();
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), withinMs);
    await this.exited;
    clearTimeout(timer);
  }
}
