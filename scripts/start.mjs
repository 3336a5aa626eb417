// `npm start` (package.json runs `node scripts/start.mjs` directly, no shell in between, P34):
// everything the service needs on a fresh clone, then the service itself —
//   1. node_modules, if they do not match package-lock.json by content (scripts/ensure-deps.mjs);
//   2. dist/, if missing or older than src/ (nest build); the operator console's bundle
//      (console/dist, scripts/build-console.mjs), if missing or older than console/src;
//   3. the embedded database unless MONGODB_URI is set: mongo-java-server on its H2 backend,
//      data in $START_DATA_DIR/h2 (D2/D3: writes version-guarded like anywhere, P29, P30, P117);
//   4. development API keys unless API_KEYS is set (kept in $START_DATA_DIR/dev-api-keys.json);
//   5. the service (dist/main.js) on that database.
// SIGINT or SIGTERM to this process stops the service (through Nest's shutdown hooks), then the
// database, then exits. A terminal's Ctrl-C reaches this script twice (from the terminal, to the
// whole foreground process group, and forwarded by npm): a second signal within
// SECOND_SIGNAL_GRACE_MS is the same stop; only one after that kills the service at once. The
// service and the database run in process groups of their own, so the terminal's signal reaches
// them only through this script, in order: the service first (its final flush), then the database. If the embedded database dies
// on its own, the service stays up (answering 503 meanwhile, P21/P41) and the database is started
// again on the same port and file with backoff; after repeated failures this gives up (P126).
// If this process is killed
// outright, both children notice (the launcher watches its stdin, the service its IPC channel:
// scripts/exit-with-parent.cjs) and stop by themselves. Configuration: README, "Configuration".
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDatabase } from './db/servers.mjs';
import { ensureDeps } from './ensure-deps.mjs';
import { SERVICE_NODE_FLAGS } from './service-node-flags.mjs';
import { buildConsole, consoleBuildNeeded } from './build-console.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = resolve(process.env.START_DATA_DIR || join(ROOT, '.data'));
const ROLES = ['admin', 'dispatcher', 'tool-health-writer', 'audit-reader'];
const STOP_TIMEOUT_MS = 10_000;
/** A second signal sooner than this after the first is the same stop, delivered twice (P224). */
const SECOND_SIGNAL_GRACE_MS = 2_000;
// P126: restarts of a database that died on its own: 0.5 s, 1 s, 2 s, 4 s, then every 8 s; a
// database that stays up a minute has recovered (the next death starts at 0.5 s again); ten
// deaths or failed starts in a row without that are a database that cannot run here: give up.
const RESTART_FIRST_DELAY_MS = 500;
const RESTART_MAX_DELAY_MS = 8_000;
const RESTART_STABLE_AFTER_MS = 60_000;
const RESTART_GIVE_UP_AFTER = 10;
const log = (line) => process.stderr.write(`start: ${line}\n`);
const sleep = (ms) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

let step = null; // the preparation child running now
let database = null;
let service = null;
let signalled = null;
let signalledAt = 0;
let databaseDied = false;
let exiting = false;
let restarting = null; // the restart loop of a database that died, while it runs
let failuresInARow = 0;

async function finish(code) {
  if (exiting) return;
  exiting = true;
  await restarting; // stops what it started once it sees `exiting`
  if (database) await database.stop();
  process.exit(code);
}

/** Watches the embedded database: when it dies on its own, starts it again (P126). */
function superviseDatabase(handle, options) {
  const upSince = Date.now();
  handle.exited.then((how) => {
    if (exiting || signalled || database !== handle) return;
    if (Date.now() - upSince >= RESTART_STABLE_AFTER_MS) failuresInARow = 0;
    database = null;
    log(
      `the embedded database stopped unexpectedly (${how.signal ?? `exit code ${how.code}`}): ` +
        'the service stays up and answers 503 until it is back; restarting it',
    );
    restarting = restartDatabase(options, Date.now()).finally(() => (restarting = null));
  });
}

async function restartDatabase(options, diedAt) {
  const stopped = () => exiting || signalled;
  for (;;) {
    failuresInARow++;
    if (failuresInARow > RESTART_GIVE_UP_AFTER) {
      log(`the embedded database failed ${RESTART_GIVE_UP_AFTER} times in a row: giving up, stopping the service`);
      databaseDied = true;
      signalled = 'SIGTERM';
      service?.kill('SIGTERM');
      return;
    }
    const delay = Math.min(RESTART_FIRST_DELAY_MS * 2 ** (failuresInARow - 1), RESTART_MAX_DELAY_MS);
    for (const until = Date.now() + delay; Date.now() < until && !stopped();) await sleep(Math.min(50, until - Date.now()));
    if (stopped()) return;
    try {
      const handle = await startDatabase('mongo-java-server-h2', options);
      if (stopped()) return void (await handle.stop());
      database = handle;
      log(`embedded database restarted (pid ${handle.pid}), ${Date.now() - diedAt} ms after it stopped`);
      superviseDatabase(handle, options);
      return;
    } catch (error) {
      log(`restarting the embedded database failed (${failuresInARow} in a row): ${String(error?.message).split('\n')[0]}`);
    }
  }
}

function onSignal(signal) {
  if (signalled) {
    if (Date.now() - signalledAt < SECOND_SIGNAL_GRACE_MS) {
      log(`${signal} again within ${SECOND_SIGNAL_GRACE_MS / 1000} s: the same stop (send it again later to kill the service)`);
      return;
    }
    if (service && service.exitCode === null && service.signalCode === null) {
      log(`second ${signal}: killing the service`);
      service.kill('SIGKILL');
    }
    return;
  }
  signalled = signal;
  signalledAt = Date.now();
  if (service) {
    log(`${signal}: stopping the service and the database`);
    service.kill('SIGTERM');
    setTimeout(() => {
      log(`the service did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing it`);
      service.kill('SIGKILL');
    }, STOP_TIMEOUT_MS).unref();
  } else {
    log(`${signal}: stopping`);
    step?.kill(signal);
    void finish(signal === 'SIGINT' ? 130 : 143);
  }
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** Runs one preparation command; rejects on failure. */
function run(command, args) {
  return new Promise((resolvePromise, reject) => {
    step = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    step.once('error', reject);
    step.once('exit', (code, sig) => {
      step = null;
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(' ')} failed (${sig ?? `exit code ${code}`})`));
    });
  });
}

/** Newest modification time under `path` (files only), 0 if it does not exist. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0);
}

/** One random key per role, kept in the data directory (git-ignored) so they survive restarts. */
function developmentKeys() {
  const file = join(DATA, 'dev-api-keys.json');
  if (!existsSync(file)) {
    mkdirSync(DATA, { recursive: true });
    const keys = Object.fromEntries(ROLES.map((role) => [role, `dev-${role}-${randomBytes(12).toString('hex')}`]));
    writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  }
  const keys = JSON.parse(readFileSync(file, 'utf8'));
  const env = ROLES.map((role) => `dev-${role}:${role}:${createHash('sha256').update(keys[role]).digest('hex')}`).join(',');
  return { file, keys, env };
}

/**
 * Issue 36: the end of `npm start`'s start-up, after the service's JSON log lines — a short plain
 * banner of where to go (the console, Swagger, the GraphQL playground, MCP), where the keys are
 * and how to stop. The service reports its bound port and what it serves over the IPC channel
 * once it listens (src/main.ts), so PORT=0 and DOCS_ENABLED=false are shown as they are.
 */
function printBannerWhenListening(child, keysFile) {
  child.on('message', (message) => {
    if (message?.type !== 'listening') return;
    const host = ['0.0.0.0', '::', ''].includes(message.host) ? 'localhost' : message.host.includes(':') ? `[${message.host}]` : message.host;
    const base = `http://${host}:${message.port}`;
    const lines = [
      '',
      `Tool availability service is up at ${base}`,
      `  Operator console    ${base}/console`,
      message.docs ? `  Swagger (REST)      ${base}/docs` : '  Swagger (REST)      off (DOCS_ENABLED=false)',
      message.playground ? `  GraphQL playground  ${base}/graphql` : '  GraphQL playground  off (PLAYGROUND_ENABLED=false)',
      `  MCP (Streamable)    ${base}/mcp   (send the key in the x-api-key header)`,
      keysFile ? `  API keys            ${keysFile}  (one per role; printed above)` : '  API keys            the ones you set in API_KEYS',
      '  Stop                Ctrl+C (or: kill -INT ' + process.pid + ')',
      '',
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
  });
}

function integerEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    log(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
    process.exit(78);
  }
  return Number(raw);
}

function booleanEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') {
    log(`${name} must be true or false, got ${JSON.stringify(raw)}`);
    process.exit(78);
  }
  return raw === 'true';
}

async function main() {
  const env = { ...process.env };
  if (!env.API_KEYS && env.NODE_ENV === 'production') {
    log('API_KEYS is required in production (see README, "Security")');
    return finish(78);
  }
  const dbPort = integerEnv('EMBEDDED_DB_PORT', 27027);
  const commitIntervalMs = integerEnv('EMBEDDED_DB_COMMIT_INTERVAL_MS', 50);
  const commitPerWrite = booleanEnv('EMBEDDED_DB_COMMIT_PER_WRITE', true);

  ensureDeps();
  if (signalled) return;
  const distMain = join(ROOT, 'dist', 'main.js');
  const sources = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'tsconfig.json')), newest(join(ROOT, 'tsconfig.build.json')));
  if (!existsSync(distMain) || sources > statSync(distMain).mtimeMs) {
    log('building the service (nest build)');
    await run(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build']);
  }
  if (signalled) return;
  if (consoleBuildNeeded()) {
    log('building the operator console (scripts/build-console.mjs)');
    await buildConsole();
  }

  let keysFile = null;
  if (!env.API_KEYS) {
    const dev = developmentKeys();
    keysFile = dev.file;
    env.API_KEYS = dev.env;
    log(`development API keys (from ${dev.file}):`);
    for (const [role, key] of Object.entries(dev.keys)) process.stderr.write(`  ${role.padEnd(20)} ${key}\n`);
  }

  if (!env.MONGODB_URI) {
    const dataDir = join(DATA, 'h2');
    try {
      database = await startDatabase('mongo-java-server-h2', {
        dataDir,
        port: dbPort || undefined,
        commitIntervalMs,
        commitPerWrite,
        ownProcessGroup: true,
      });
    } catch (error) {
      if (error?.addressInUse) error.message += ` (set EMBEDDED_DB_PORT to another port, or 0 for any free one)`;
      else if (/lock/i.test(String(error?.message)))
        error.message += `\n(another server has ${dataDir} open: one embedded database per data directory, D3)`;
      throw error;
    }
    if (signalled) return finish(signalled === 'SIGINT' ? 130 : 143);
    env.MONGODB_URI = `${database.uri}/tool_availability`;
    log(
      `embedded mongo-java-server (H2) at ${database.uri}, data in ${dataDir}, ` +
        (commitPerWrite ? `commit per write (+ every ${commitIntervalMs} ms)` : `commit every ${commitIntervalMs} ms`),
    );
    // Restarted on the port it got (the service's MONGODB_URI names it) and on the same file.
    superviseDatabase(database, { dataDir, port: database.port, commitIntervalMs, commitPerWrite, ownProcessGroup: true });
  }

  service = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--require', join(ROOT, 'scripts', 'exit-with-parent.cjs'), distMain], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true, // a process group of its own: see the head of this file
  });
  printBannerWhenListening(service, keysFile);
  service.once('error', (error) => {
    log(`cannot start the service: ${error.message}`);
    void finish(1);
  });
  void announceWhenReady(env, keysFile);
  service.once('exit', (code, sig) => {
    // After our own signal, the service's exit by that signal (Nest re-raises it) is a clean stop.
    const clean = signalled && (code === 0 || sig === signalled || sig === 'SIGTERM' || sig === 'SIGINT');
    void finish(databaseDied ? 1 : clean ? 0 : (code ?? 1));
  });
}

/**
 * The last lines of a start-up: where to go next, once the service answers (the JSON log lines
 * above are for machines). Only a port given as a number is announced (PORT=0 picks one at random).
 */
async function announceWhenReady(env, keysFile) {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port <= 0) return;
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  for (const until = Date.now() + 120_000; Date.now() < until && !signalled && !exiting; ) {
    const ready = await fetch(`${base}/health/ready`).then((r) => r.status === 200, () => false);
    if (ready) {
      const docs = env.DOCS_ENABLED === 'false' || (env.NODE_ENV === 'production' && env.DOCS_ENABLED !== 'true');
      process.stderr.write(
        [
          '',
          `Ready: ${base}`,
          `  console      ${base}/console`,
          docs ? null : `  API docs     ${base}/docs  (OpenAPI: ${base}/docs/openapi.json)`,
          `  GraphQL      ${base}/graphql${docs ? '' : '  (the playground in a browser)'}`,
          `  MCP          ${base}/mcp`,
          keysFile ? `  keys         printed above, kept in ${keysFile}` : '  keys         the ones in API_KEYS',
          '  stop         Ctrl-C (a graceful stop: requests in flight are answered, buffered counts written)',
          '',
        ]
          .filter((line) => line !== null)
          .join('\n') + '\n',
      );
      return;
    }
    await sleep(250);
  }
}

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  void finish(1);
});
