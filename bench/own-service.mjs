// A memory-backend mongo-java-server and the built service (dist/) on free loopback ports, for the
// bench files that need a service of their own with settings of their own. `stop()` ends both.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startDatabase } from '../scripts/db/servers.mjs';
import { SERVICE_NODE_FLAGS } from '../scripts/service-node-flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_KEYS = { admin: 'own-bench-admin-key', audit: 'own-bench-audit-key', dispatcher: 'own-bench-dispatcher-key' };
const sha = (s) => createHash('sha256').update(s).digest('hex');

export async function call(port, method, pathname, key, body) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started };
}

/** Marks `tool` DOWN for everyone, as a dispatcher would: one STATUS_CHANGED event. */
export async function markToolDown(port, tool) {
  const res = await call(port, 'POST', '/v1/health/mark-unavailable', BENCH_KEYS.dispatcher, {
    scope: 'GLOBAL',
    toolName: tool,
    code: 'BACKEND_UNREACHABLE',
    source: 'bench',
  });
  if (res.status !== 200) throw new Error(`mark-unavailable → ${res.status} ${res.text.slice(0, 200)}`);
}

export async function startOwnService(env = {}) {
  const db = await startDatabase('mongo-java-server');
  const port = await freePort();
  const spawnService = () =>
    spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        MONGODB_URI: db.uri,
        API_KEYS: `b-admin:admin:${sha(BENCH_KEYS.admin)},b-audit:audit-reader:${sha(BENCH_KEYS.audit)},b-dispatcher:dispatcher:${sha(BENCH_KEYS.dispatcher)}`,
        ...env,
      },
    });
  let service = spawnService();
  const end = async (signal) => {
    if (service.exitCode === null && service.signalCode === null) {
      service.kill(signal);
      await new Promise((r) => service.once('exit', r));
    }
  };
  const ready = async () => {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error('the service did not become ready');
      const answer = await call(port, 'GET', '/health/ready', BENCH_KEYS.audit).catch(() => null);
      if (answer?.status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    await end('SIGTERM');
    await db.stop();
  };
  /** Ends the service with `signal` and starts it again on the same database and port; resolves once it is ready. */
  const restart = async (signal) => {
    await end(signal);
    service = spawnService();
    await ready();
  };
  try {
    await ready();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    get pid() {
      return service.pid;
    },
    stop,
    restart,
  };
}
