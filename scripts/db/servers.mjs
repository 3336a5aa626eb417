// Starts the project's real MongoDB-protocol servers (decision D2: no mongod here) for the
// service, its tests and its benchmarks: mongo-java-server 1.47.0 on its H2 backend (the
// embedded default and the persistent test tier, P29), the same on its memory backend (e2e,
// fuzz), and FerretDB v1.24.2 on SQLite (optional tier only). Plain Node ESM: node built-ins plus
// the `mongodb` driver that mongoose brings into node_modules.
//
// Library:
//   import { startDatabase } from './scripts/db/servers.mjs';
//   const db = await startDatabase('mongo-java-server-h2', { dataDir: '/tmp/x' });
//   // db.uri === 'mongodb://127.0.0.1:PORT'
//   await db.stop();
//
// CLI (foreground; stops on SIGINT/SIGTERM):
//   node scripts/db/servers.mjs start ferretdb [--data-dir DIR] [--port N] [--quiet]
//   node scripts/db/servers.mjs start mongo-java-server [--port N] [--quiet]
//   node scripts/db/servers.mjs start mongo-java-server-h2 --data-dir DIR [--port N]
//        [--commit-interval-ms N] [--no-commit-per-write] [--quiet]
//   node scripts/db/servers.mjs install ferretdb|mongo-java-server|mongo-java-server-h2|all

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const TAIL_BYTES = 8 * 1024;
const PORT_RETRIES = 3;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * ferretdb: FerretDB v1 on SQLite (optional, not on the default path); mongo-java-server: its memory
 * backend (fast e2e tier, loses everything on stop); mongo-java-server-h2: its H2 MVStore backend,
 * persisted in dataDir (the embedded default of `npm start` and the persistent test tier, D2).
 */
export const KINDS = Object.freeze(['ferretdb', 'mongo-java-server', 'mongo-java-server-h2']);

/** The H2 file inside a data directory. */
export function h2File(dataDir) {
  return path.join(dataDir, 'tool_availability.mv.db');
}

const isJava = (kind) => kind === 'mongo-java-server' || kind === 'mongo-java-server-h2';

const INSTALL_SCRIPTS = {
  ferretdb: path.join(ROOT, 'scripts', 'install-ferretdb.sh'),
  'mongo-java-server': path.join(ROOT, 'scripts', 'install-mongo-java-server.sh'),
  'mongo-java-server-h2': path.join(ROOT, 'scripts', 'install-mongo-java-server.sh'),
};

/** Absolute path of the project-local FerretDB binary (built by scripts/install-ferretdb.sh). */
export function ferretdbBinary() {
  return path.join(ROOT, '.cache', 'bin', 'ferretdb');
}

/** Absolute path of the mongo-java-server launcher jar (built by scripts/install-mongo-java-server.sh). */
export function mongoJavaServerJar() {
  return path.join(ROOT, '.cache', 'mongo-java-server', 'mongo-java-server-launcher.jar');
}

function checkKind(kind) {
  if (!KINDS.includes(kind)) {
    throw new Error(`unknown database kind ${JSON.stringify(kind)}: expected one of ${KINDS.join(', ')}`);
  }
}

/**
 * Runs the kind's install script synchronously (its output goes to stderr). The scripts are
 * no-ops (milliseconds) when the binary/jar is already up to date, and take a lock, so
 * concurrent callers are safe.
 */
export function installDatabase(kind) {
  checkKind(kind);
  const script = INSTALL_SCRIPTS[kind];
  const result = spawnSync('bash', [script], { stdio: ['ignore', 2, 2], cwd: ROOT });
  if (result.error) {
    throw new Error(`cannot run ${script}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new Error(
      `${path.relative(ROOT, script)} failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.status}`}); see its output above`,
    );
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen({ host: HOST, port: 0, exclusive: true }, () => {
      const { port } = server.address();
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

/** file: URI for FerretDB's --sqlite-url; it must name an existing directory and end with "/". */
function sqliteUrl(dir) {
  const encoded = dir
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `file:${encoded}/`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function tcpAccepts(port, timeoutMs = 1_000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    const done = (ok) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

let mongodbModule;
/**
 * Connects and runs `ping` then `serverStatus`. Resolves to null when the server is not
 * answering yet, else to the pid it reports (undefined if it reports none).
 */
async function probe(uri) {
  mongodbModule ??= await import('mongodb');
  const client = new mongodbModule.MongoClient(uri, {
    directConnection: true,
    serverSelectionTimeoutMS: 2_000,
    connectTimeoutMS: 2_000,
    socketTimeoutMS: 5_000,
    maxPoolSize: 1,
  });
  try {
    await client.connect();
    const admin = client.db('admin');
    const reply = await admin.command({ ping: 1 });
    if (reply?.ok !== 1) return null;
    const status = await admin.command({ serverStatus: 1 }).catch(() => null);
    return { pid: status?.pid === undefined ? undefined : Number(status.pid) };
  } catch {
    return null;
  } finally {
    await client.close().catch(() => {});
  }
}

/** Rejects when something already listens on 127.0.0.1:port. */
function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (err) => {
      const e = new Error(
        err.code === 'EADDRINUSE' ? `port ${port} on ${HOST} is already in use` : `port ${port} on ${HOST}: ${err.message}`,
      );
      e.addressInUse = err.code === 'EADDRINUSE';
      reject(e);
    });
    server.listen({ host: HOST, port, exclusive: true }, () => server.close(() => resolve()));
  });
}

/** Children still running, killed (SIGKILL) if this Node process exits without stopping them. */
const liveChildren = new Set();
let exitHookInstalled = false;
function trackChild(child) {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of liveChildren) {
        try {
          c.kill('SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
}

/**
 * FerretDB does not notice when its parent dies (mongo-java-server's launcher watches its stdin
 * for that). A tiny shell holds a pipe from this process: if this process dies without stopping
 * the server (SIGKILL, crash), the pipe closes and the shell stops the server. It is killed as
 * soon as the server exits, so it never signals a recycled pid.
 */
function watchdog(child) {
  if (!child.pid) return;
  const script =
    'while read -r _; do :; done; kill -TERM "$1" 2>/dev/null || exit 0; ' +
    'i=0; while [ $i -lt 50 ] && kill -0 "$1" 2>/dev/null; do sleep 0.1; i=$((i+1)); done; ' +
    'kill -KILL "$1" 2>/dev/null; exit 0';
  let dog;
  try {
    dog = spawn('sh', ['-c', script, 'ferretdb-watchdog', String(child.pid)], { stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    return; // best effort
  }
  dog.on('error', () => {});
  dog.stdin.on('error', () => {});
  dog.unref();
  dog.stdin.unref?.();
  child.once('exit', () => {
    try {
      dog.kill('SIGKILL');
    } catch {
      // gone
    }
  });
}

function makeLogger(kind, port, log) {
  if (typeof log === 'function') return (line) => log(line);
  if (log) return (line) => process.stderr.write(`[${kind}:${port}] ${line}\n`);
  return null;
}

function childEnv() {
  // FERRETDB_* variables would configure FerretDB behind our flags' back (e.g. setup users).
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('FERRETDB_')) env[key] = value;
  }
  return env;
}

/**
 * The MVStore settings of the embedded H2 server (MVStore.Builder.fromString; H2_SETTINGS in the
 * environment overrides them for an experiment). P161: the background writer rewrites a chunk
 * once less than half of it is live, not below 90 % (the library's default), which after a bulk
 * of inserts kept it rewriting chunks for minutes and made every lookup pay for it
 * (bench/h2-threads.mjs; docs/performance.md, "The embedded H2 server after a million inserts").
 */
const H2_SETTINGS = 'autoCompactFillRate:50';

function spawnServer(kind, { dataDir, port, commitIntervalMs, commitPerWrite, h2Settings, ownProcessGroup }) {
  if (kind === 'ferretdb') {
    const args = [
      '--handler=sqlite',
      `--sqlite-url=${sqliteUrl(dataDir)}`,
      `--listen-addr=${HOST}:${port}`,
      '--debug-addr=-',
      `--state-dir=${dataDir}`,
      '--telemetry=disable',
      '--log-level=warn',
    ];
    return spawn(ferretdbBinary(), args, { cwd: dataDir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  }
  const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  // stdin stays an open pipe: the launcher exits when it closes (i.e. when this process dies).
  const args = ['-jar', mongoJavaServerJar(), HOST, String(port), '--exit-on-stdin-eof'];
  if (kind === 'mongo-java-server-h2') {
    args.push('--h2', h2File(dataDir));
    if (commitIntervalMs) args.push('--commit-interval-ms', String(commitIntervalMs));
    if (commitPerWrite !== false) args.push('--commit-per-write'); // P30
    const settings = h2Settings ?? process.env.H2_SETTINGS ?? H2_SETTINGS;
    if (settings) args.push('--h2-settings', settings);
  }
  return spawn(java, args, {
    cwd: ROOT,
    env: process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // In a process group of its own, a terminal's Ctrl-C (sent to the whole foreground group)
    // does not stop the database under a service that still has to write its final flush; its
    // parent stops it after the service (and it stops by itself when its stdin closes).
    detached: ownProcessGroup === true,
  });
}

/**
 * One attempt: spawn, wait for readiness. Resolves to the handle, or rejects with an Error
 * carrying `.addressInUse` when the port was taken.
 */
async function startOnce(kind, { dataDir, port, log, timeoutMs, commitIntervalMs, commitPerWrite, h2Settings, ownProcessGroup }) {
  const child = spawnServer(kind, { dataDir, port, commitIntervalMs, commitPerWrite, h2Settings, ownProcessGroup });
  trackChild(child);
  if (kind === 'ferretdb') watchdog(child);

  let tail = '';
  const appendTail = (text) => {
    tail = (tail + text).slice(-TAIL_BYTES);
  };
  let listeningPort = kind === 'ferretdb' ? port : null;
  let logger = makeLogger(kind, port, log);
  const lineReader = (stream, onLine) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      appendTail(chunk);
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl).replace(/\r$/, '');
        pending = pending.slice(nl + 1);
        onLine(line);
      }
    });
    stream.on('end', () => {
      if (pending) onLine(pending);
      pending = '';
    });
  };
  const onLine = (line) => {
    const m = /^LISTENING (\S+):(\d+)$/.exec(line);
    if (isJava(kind) && m && listeningPort === null) {
      listeningPort = Number(m[2]);
      if (log && typeof log !== 'function') logger = makeLogger(kind, listeningPort, log);
      return;
    }
    logger?.(line);
  };
  lineReader(child.stdout, onLine);
  lineReader(child.stderr, onLine);
  child.stdin?.on('error', () => {}); // EPIPE once the server is gone

  let exitInfo = null;
  let spawnError = null;
  const exited = new Promise((resolve) => {
    child.once('error', (err) => {
      spawnError = err;
      exitInfo ??= { code: null, signal: null };
      resolve(exitInfo);
    });
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      if (exitInfo) return;
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => {
        if (!exitInfo) child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(killTimer);
    })();
    return stopping;
  };

  const describeExit = () => {
    if (spawnError) return `could not be started: ${spawnError.message}`;
    return exitInfo.signal ? `was killed by ${exitInfo.signal}` : `exited with code ${exitInfo.code}`;
  };
  const failure = (message) => {
    const err = new Error(`${message}${tail.trim() ? `\n--- ${kind} output (tail) ---\n${tail.trimEnd()}` : ''}`);
    err.addressInUse = /address already in use|BindException|cannot bind/i.test(tail);
    return err;
  };

  const deadline = Date.now() + timeoutMs;
  const ready = (async () => {
    for (;;) {
      if (exitInfo) throw failure(`${kind} ${describeExit()} before it was ready`);
      if (Date.now() > deadline) {
        await stop();
        throw failure(
          `${kind} was not ready within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} (it has been stopped)`,
        );
      }
      if (listeningPort !== null && (await tcpAccepts(listeningPort)) && !exitInfo) {
        const answer = await probe(`mongodb://${HOST}:${listeningPort}`);
        // serverStatus.pid tells our server from another process that holds the port.
        if (answer && answer.pid !== undefined && answer.pid !== child.pid) {
          await stop();
          const err = failure(`port ${listeningPort} is answered by another server (pid ${answer.pid}), not by ${kind} pid ${child.pid}`);
          err.addressInUse = true;
          throw err;
        }
        if (answer && !exitInfo) return;
      }
      await Promise.race([sleep(100), exited]);
    }
  })();

  try {
    await ready;
  } catch (err) {
    if (!exitInfo) await stop();
    throw err;
  }

  // After readiness, an unexpected exit is worth a line on stderr (tests will fail oddly otherwise).
  exited.then(() => {
    if (!stopping) {
      process.stderr.write(
        `[${kind}:${listeningPort}] database server pid ${child.pid} ${describeExit()} unexpectedly` +
          `${tail.trim() ? `; output tail:\n${tail.trimEnd()}` : ''}\n`,
      );
    }
  });

  return {
    kind,
    uri: `mongodb://${HOST}:${listeningPort}`,
    port: listeningPort,
    pid: child.pid,
    dataDir: kind === 'mongo-java-server' ? null : dataDir,
    exited,
    stop,
    /** Sends `signal` (default SIGKILL: a crash) and resolves once it exited; not reported as unexpected. */
    kill: (signal = 'SIGKILL') => {
      stopping ??= exited.then(() => {});
      if (!exitInfo) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Starts a database server and waits until it answers a MongoDB ping.
 *
 * @param {'ferretdb'|'mongo-java-server'} kind
 * @param {object} [options]
 * @param {string} [options.dataDir] required for ferretdb (created if missing; SQLite files and
 *   state.json go there); ignored by mongo-java-server (memory backend).
 * @param {number} [options.port] TCP port on 127.0.0.1; a free one when omitted or 0.
 * @param {boolean|((line: string) => void)} [options.log] true: server output to stderr with a
 *   `[kind:port]` prefix; a function: called with each output line; default: output kept only
 *   for error messages.
 * @param {number} [options.timeoutMs] readiness timeout, default 60000.
 * @param {number} [options.commitIntervalMs] mongo-java-server-h2: commit the MVStore this often
 *   (launcher default 50).
 * @param {boolean} [options.commitPerWrite] mongo-java-server-h2, default true: also commit after
 *   every command that changed something, before its reply, so an acknowledged write survives a
 *   SIGKILL (P30); false leaves only the interval commit (a window of up to ~60 ms measured).
 * @param {string} [options.h2Settings] mongo-java-server-h2: MVStore settings (Builder.fromString),
 *   default H2_SETTINGS.
 * @returns {Promise<{kind: string, uri: string, port: number, pid: number, dataDir: string|null,
 *   exited: Promise<{code: number|null, signal: string|null}>, stop: () => Promise<void>,
 *   kill: (signal?: string) => Promise<{code: number|null, signal: string|null}>}>}
 *   stop(): SIGTERM, SIGKILL after 5 s, resolves once the process has exited; idempotent.
 *   kill(): a crash on purpose (SIGKILL by default), for durability and fault tests.
 */
export async function startDatabase(
  kind,
  { dataDir, port, log, timeoutMs = READY_TIMEOUT_MS, commitIntervalMs, commitPerWrite, h2Settings, ownProcessGroup } = {},
) {
  checkKind(kind);
  if (port !== undefined && port !== null && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error(`invalid port ${JSON.stringify(port)}`);
  }
  let dir = null;
  if (kind !== 'mongo-java-server') {
    if (!dataDir) throw new Error(`startDatabase("${kind}"): dataDir is required`);
    dir = path.resolve(dataDir);
    fs.mkdirSync(dir, { recursive: true });
  }

  installDatabase(kind);

  if (port) {
    await assertPortFree(port);
    return startOnce(kind, { dataDir: dir, port, log, timeoutMs, commitIntervalMs, commitPerWrite, h2Settings, ownProcessGroup });
  }
  if (isJava(kind)) {
    // The launcher binds port 0 and reports the port it got: no race with other processes.
    return startOnce(kind, { dataDir: dir, port: 0, log, timeoutMs, commitIntervalMs, commitPerWrite, h2Settings, ownProcessGroup });
  }
  // FerretDB: pick a free port; retry if someone else took it in between.
  for (let attempt = 1; ; attempt++) {
    const picked = await freePort();
    try {
      return await startOnce(kind, { dataDir: dir, port: picked, log, timeoutMs, ownProcessGroup });
    } catch (err) {
      if (!err.addressInUse || attempt >= PORT_RETRIES) throw err;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

function usage() {
  return [
    'usage:',
    '  node scripts/db/servers.mjs start ferretdb [--data-dir DIR] [--port N] [--quiet]',
    '  node scripts/db/servers.mjs start mongo-java-server [--port N] [--quiet]',
    '  node scripts/db/servers.mjs start mongo-java-server-h2 --data-dir DIR [--port N]',
    '       [--commit-interval-ms N] [--no-commit-per-write] [--quiet]',
    '  node scripts/db/servers.mjs install ferretdb|mongo-java-server|mongo-java-server-h2|all',
    '',
    'start: runs in the foreground, prints the mongodb:// URI on stdout, stops on SIGINT/SIGTERM.',
    `ferretdb's --data-dir defaults to ${path.join(path.relative(process.cwd(), ROOT) || '.', '.data', 'ferretdb')}.`,
  ].join('\n');
}

async function cli(argv) {
  const [command, kind, ...rest] = argv;
  if (!command || command === '-h' || command === '--help') {
    console.log(usage());
    return 0;
  }
  if (command === 'install') {
    for (const k of kind === 'all' ? KINDS : [kind]) installDatabase(k);
    return 0;
  }
  if (command !== 'start') {
    console.error(usage());
    return 2;
  }
  checkKind(kind);
  const options = { log: true };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--data-dir') options.dataDir = value();
    else if (flag === '--port') options.port = Number(value());
    else if (flag === '--quiet') options.log = false;
    else if (flag === '--commit-interval-ms') options.commitIntervalMs = Number(value());
    else if (flag === '--no-commit-per-write') options.commitPerWrite = false;
    else throw new Error(`unknown option ${arg}\n${usage()}`);
  }
  if (kind === 'ferretdb' && !options.dataDir) options.dataDir = path.join(ROOT, '.data', 'ferretdb');

  // Signals are handled from the start, so one that arrives while the server is starting still
  // stops it (a default SIGTERM death would leave it running).
  let signalled = null;
  let onSignal = () => {};
  const handler = (signal) => {
    if (signalled) return;
    signalled = signal;
    onSignal(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);

  const db = await startDatabase(kind, options);
  if (signalled) {
    await db.stop();
    return 0;
  }
  console.log(db.uri);
  process.stderr.write(`${kind} ready: ${db.uri} (pid ${db.pid}${db.dataDir ? `, data ${db.dataDir}` : ''}); Ctrl-C to stop\n`);

  const keepAlive = setInterval(() => {}, 1 << 30);
  const code = await new Promise((resolve) => {
    onSignal = (signal) => {
      process.stderr.write(`${signal}: stopping ${kind}\n`);
      db.stop().then(() => resolve(0));
    };
    // If the server dies by itself (startDatabase reports it on stderr), exit non-zero.
    db.exited.then(() => {
      if (!signalled) resolve(1);
    });
  });
  clearInterval(keepAlive);
  return code;
}

const isMain = (() => {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
})();

if (isMain) {
  cli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
