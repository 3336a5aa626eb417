import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Proc, ROOT, alive, freePort, sleep, startEnv, tree } from './start-script';

/**
 * Issue 10, item 6 (P34): `npm start` stops like a service. SIGINT or SIGTERM sent to the npm
 * process alone — not to its process group, as a process manager or a script would send it —
 * stops the service and its embedded database; after 10 s no process of the tree that npm
 * started is left. The same holds when the start script itself is SIGKILLed. The tree (npm, start script, database, service) is collected from /proc
 * before the signal; a process counts as the same one only while its start time is unchanged.
 */
jest.setTimeout(300_000);

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
    const env = startEnv(port, dataDir);
    let output = '';
    const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      npm.once('exit', (code, sig) => resolve({ code, signal: sig })),
    );

    const readyAfter = await waitReady(`http://127.0.0.1:${port}/health/ready`, npm, () => output);
    // Start-up ends with where to go next, after the log lines.
    for (let i = 0; i < 40 && !output.includes('  stop '); i++) await sleep(50);
    expect(output).toContain(`Ready: http://127.0.0.1:${port}\n  console      http://127.0.0.1:${port}/console\n`);
    expect(output).toMatch(
      / {2}MCP {10}http:\/\/127\.0\.0\.1:\d+\/mcp\n {2}keys {9}printed above, kept in .*dev-api-keys\.json\n {2}stop {9}Ctrl-C/,
    );
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
