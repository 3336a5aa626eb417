// `npm run bench`: the benchmark in one run. Builds the service when src/ is newer than dist/,
// starts mongo-java-server's memory backend (the e2e tier's server) and its H2 backend (the
// embedded default of `npm start`, commit per write), optionally FerretDB, the
// service and a bare node:http baseline (scenarios a and c) as child processes, seeds documents straight into the driver collection, measures the scenarios
// with autocannon's programmatic API, prints a table with the target ratios and writes JSON with
// the machine's facts under bench/results/. Everything it starts, it stops (also on Ctrl-C).
//
//   node bench/run.mjs [--servers mongo-java-server,mongo-java-server-h2,ferretdb] [--only a,b,c,d,e,f,g,i,w,r,s,p] [--quick]
//                      [--duration 8] [--warmup 2] [--connections 32] [--latency-connections 8]
//                      [--rounds 4] [--jit-warmup 16] [--large 1000000] [--ferretdb-large 5000]
//                      [--ferretdb-connections 4]
//                      [--no-build] [--out FILE]
// Each scenario's targets are measured in interleaved slices (ABBA) of duration/rounds seconds.
import autocannon from 'autocannon';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { freePort, startDatabase } from '../scripts/db/servers.mjs';
import { SERVICE_NODE_FLAGS } from '../scripts/service-node-flags.mjs';
import { calendarFeedBench } from './calendar-feed.mjs';
import { inspectorUrl, printStages, profileStages, scaleStages } from './profile-stages.mjs';
import { webhookIsolationBench } from './webhook-isolation.mjs';
import { webhookResumeBench } from './webhook-resume.mjs';
import { bodies } from './bodies.mjs';
import { nowMs, pauseShares, serviceGc, watchOwnGc } from './tail.mjs';
import { BASE, contextIds, growTo, loadEncodeKey, manifestTool, seedBase } from './seed.mjs';
import { STATS_TARGETS, measureStatsRows, statsScenarios } from './stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

// ---------------------------------------------------------------------------------------------
// options

function parseArgs(argv) {
  const o = {
    servers: ['mongo-java-server', 'mongo-java-server-h2'],
    only: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'w', 'r', 's', 'p'],
    duration: 8,
    warmup: 2,
    connections: 32,
    latencyConnections: 8,
    large: 1_000_000,
    ferretdbLarge: 5_000,
    jitWarmup: 16,
    rounds: 4,
    ferretdbConnections: 4,
    build: true,
    out: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const int = () => {
      const v = Number(next());
      if (!Number.isInteger(v) || v <= 0) throw new Error(`${arg} needs a positive integer`);
      return v;
    };
    if (arg === '--servers') o.servers = next().split(',');
    else if (arg === '--only') o.only = next().split(',');
    else if (arg === '--duration') o.duration = int();
    else if (arg === '--warmup') o.warmup = int();
    else if (arg === '--connections') o.connections = int();
    else if (arg === '--latency-connections') o.latencyConnections = int();
    else if (arg === '--large') o.large = int();
    else if (arg === '--jit-warmup') o.jitWarmup = int();
    else if (arg === '--rounds') o.rounds = int();
    else if (arg === '--ferretdb-connections') o.ferretdbConnections = int();
    else if (arg === '--ferretdb-large') o.ferretdbLarge = int();
    else if (arg === '--no-build') o.build = false;
    else if (arg === '--out') o.out = next();
    else if (arg === '--quick') Object.assign(o, { duration: 4, warmup: 1, rounds: 2, jitWarmup: 6, large: 100_000, ferretdbLarge: 3_000 });
    else if (arg === '-h' || arg === '--help') {
      console.log(
        fs
          .readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('//'))
          .join('\n'),
      );
      process.exit(0);
    } else throw new Error(`unknown option ${arg} (see --help)`);
  }
  for (const s of o.servers)
    if (!['mongo-java-server', 'mongo-java-server-h2', 'ferretdb'].includes(s)) throw new Error(`unknown server ${s}`);
  return o;
}

// ---------------------------------------------------------------------------------------------
// processes we start, stopped whatever happens

const cleanups = [];
let stopping = false;
async function cleanup() {
  while (cleanups.length) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (error) {
      process.stderr.write(`cleanup: ${error.message}\n`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${signal}: stopping everything the benchmark started\n`);
    await cleanup();
    process.exit(130);
  });
}

const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

function ensureBuild(wanted) {
  const main = path.join(ROOT, 'dist', 'main.js');
  const stale = !fs.existsSync(main) || newestMtime(path.join(ROOT, 'src')) > fs.statSync(main).mtimeMs;
  if (!stale) return 'up to date';
  if (!wanted) {
    if (!fs.existsSync(main)) throw new Error('dist/main.js is missing and --no-build was given');
    return 'stale (src newer than dist), --no-build';
  }
  log('building the service (npx nest build) …');
  const r = spawnSync('npx', ['nest', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error('npx nest build failed; see its output above');
  return 'built';
}

/** Spawns a Node child; resolves once `ready()` says so; output tail kept for error messages. */
async function startChild(name, args, env, ready, { timeoutMs = 90_000 } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  let exited = null;
  const keep = (chunk) => {
    tail = (tail + chunk).slice(-8192);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  const exitPromise = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exitPromise;
    clearTimeout(t);
  };
  cleanups.push(stop);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${name} exited (${exited.code ?? exited.signal}) before it was ready:\n${tail}`);
    const answer = await ready(() => tail).catch(() => null);
    if (answer) return { child, stop, answer, tail: () => tail };
    if (Date.now() > deadline) throw new Error(`${name} not ready within ${timeoutMs / 1000} s:\n${tail}`);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------
// keys and requests

const KEYS = { dispatcher: 'bench-dispatcher-key', audit: 'bench-audit-key', admin: 'bench-admin-key' };
const sha = (s) => createHash('sha256').update(s).digest('hex');
const API_KEYS = `bench-dispatcher:dispatcher:${sha(KEYS.dispatcher)},bench-audit:audit-reader:${sha(KEYS.audit)},bench-admin:admin:${sha(KEYS.admin)}`;

const contextOf = contextIds;
const VARIANTS = 4096;

const lookupPath = (i) => {
  const c = contextOf(i);
  return `/v1/tools/${manifestTool(i % BASE.manifestTools)}/availability?sessionId=${c.sessionId}&userId=${c.userId}&projectId=${c.projectId}&tenantId=${c.tenantId}`;
};

function postScenario(pathname, make, variants = VARIANTS) {
  const payloads = Array.from({ length: variants }, (_, i) => JSON.stringify(make(i)));
  return { method: 'POST', paths: [pathname], payloads, sample: payloads[0] };
}
function getScenario(makePath) {
  return { method: 'GET', paths: Array.from({ length: VARIANTS }, (_, i) => makePath(i)), payloads: null };
}

// ---------------------------------------------------------------------------------------------
// measuring

let clockTicks = null;
/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid) {
  if (!pid) return null;
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
}

/** Waits (at most a minute) until a process uses less than a tenth of a core; returns the wait. */
async function settle(pid, { maxMs = 60_000, idleShare = 0.1 } = {}) {
  const started = Date.now();
  let before = cpuMs(pid);
  if (before === null) return 0;
  while (Date.now() - started < maxMs) {
    await sleep(1000);
    const now = cpuMs(pid);
    if (now === null || now - before < 1000 * idleShare) break;
    before = now;
  }
  return Date.now() - started;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}
const round = (x, d = 2) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d);

/**
 * One autocannon run; latencies recorded here at full precision (autocannon's histogram has 1 ms
 * steps), with each answer's arrival on this process's clock (`ends`, for tail.mjs).
 */
function cannon(port, scenario, { duration, connections, key }) {
  return new Promise((resolve, reject) => {
    let n = 0;
    const latencies = [];
    const ends = [];
    const statuses = {};
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration,
        headers,
        requests: [
          {
            method: scenario.method,
            setupRequest: (req) => {
              const i = n++;
              req.path = scenario.paths[i % scenario.paths.length];
              if (scenario.payloads) req.body = scenario.payloads[i % scenario.payloads.length];
              return req;
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, ends, statuses })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) {
        latencies.push(responseTime);
        ends.push(nowMs());
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// one database server

/**
 * Several targets measured in interleaved slices (ABBA order, so a drift in the machine's load
 * hits every target alike): on a shared 2-core machine the ratio of two numbers taken minutes
 * apart says more about the neighbours than about the code.
 */
async function measureGroup(targets_, o, connections) {
  const targets = targets_.map((t) => ({ ...t, pid: t.pid ?? o.pidOf?.[t.port] }));
  for (const t of targets) await cannon(t.port, t.scenario, { duration: o.warmup, connections, key: t.key ?? KEYS.dispatcher });
  const rounds = o.slowServer ? Math.min(2, o.rounds) : o.rounds;
  const slice = Math.max(o.slowServer ? 4 : 1, Math.round(o.duration / rounds));
  const acc = targets.map(() => ({
    latencies: [],
    ends: [],
    requests: 0,
    seconds: 0,
    errors: 0,
    non2xx: 0,
    statuses: {},
    cpu: 0,
    dbCpu: 0,
    serviceGc: { count: 0, seconds: 0, seen: false },
  }));
  const ownGc = watchOwnGc();
  for (let r = 0; r < rounds; r++) {
    const order = targets.map((_, i) => (r % 2 === 0 ? i : targets.length - 1 - i));
    for (const i of order) {
      const t = targets[i];
      // Only where a target asks: a scrape counts the stored documents (cached, but a count of
      // the large collection holds the database for seconds and fails the rows beside it).
      const gcBefore = t.serviceGc ? await serviceGc(t.port, KEYS.audit) : null;
      const cpuBefore = [cpuMs(t.pid), cpuMs(o.dbPid)];
      const { result, latencies, ends, statuses } = await cannon(t.port, t.scenario, {
        duration: slice,
        connections,
        key: t.key ?? KEYS.dispatcher,
      });
      const cpuAfter = [cpuMs(t.pid), cpuMs(o.dbPid)];
      const gcAfter = gcBefore && (await serviceGc(t.port, KEYS.audit));
      const a = acc[i];
      if (gcBefore && gcAfter) {
        a.serviceGc.count += gcAfter.count - gcBefore.count;
        a.serviceGc.seconds += gcAfter.seconds - gcBefore.seconds;
        a.serviceGc.seen = true;
      }
      for (const x of ends) a.ends.push(x);
      if (cpuBefore[0] !== null && cpuAfter[0] !== null) a.cpu += cpuAfter[0] - cpuBefore[0];
      if (cpuBefore[1] !== null && cpuAfter[1] !== null) a.dbCpu += cpuAfter[1] - cpuBefore[1];
      for (const x of latencies) a.latencies.push(x);
      a.requests += result.requests.total;
      a.seconds += result.duration || slice;
      a.errors += result.errors + result.timeouts;
      a.non2xx += result.non2xx;
      for (const [k, v] of Object.entries(statuses)) a.statuses[k] = (a.statuses[k] ?? 0) + v;
    }
  }
  const ownPauses = ownGc.stop();
  return targets.map((t, i) => {
    const a = acc[i];
    const sorted = Float64Array.from(a.latencies).sort();
    const ok = sorted.length;
    const p99 = percentile(sorted, 99);
    const shares = pauseShares(a.latencies, a.ends, ownPauses, p99);
    const row = {
      label: t.label,
      connections,
      seconds: round(a.seconds, 1),
      requests: a.requests,
      rps: round(ok / a.seconds, 0),
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(p99),
      mean: round(ok ? a.latencies.reduce((s, x) => s + x, 0) / ok : null),
      // CPU per answered request: the server process, and the database server (its background
      // work included). Robust to a noisy neighbour in a way req/s and latency are not.
      cpuMsPerRequest: ok && a.cpu ? round(a.cpu / ok, 3) : null,
      dbCpuMsPerRequest: ok && a.dbCpu ? round(a.dbCpu / ok, 3) : null,
      errors: a.errors,
      non2xx: a.non2xx,
      statuses: a.statuses,
      // What the slowest waited on (tail.mjs): the share of the requests above p99, and of all,
      // whose span overlapped a GC pause of this process (the load generator); the service's
      // own collections in the same slices, counted from its /metrics.
      tail: {
        slowestOverlappedLoadGeneratorGc: round(shares.slowestOverlapped, 3),
        allOverlappedLoadGeneratorGc: round(shares.allOverlapped, 3),
        serviceGcPerSecond: a.serviceGc.seen ? round(a.serviceGc.count / a.seconds, 1) : null,
        serviceGcMeanMs: a.serviceGc.seen && a.serviceGc.count ? round((a.serviceGc.seconds * 1000) / a.serviceGc.count) : null,
      },
    };
    log(
      `  ${t.label.padEnd(46)} ${String(row.rps).padStart(7)} req/s  p50 ${fmt(row.p50)}  p99 ${fmt(row.p99)} ms  cpu/req ${fmt(row.cpuMsPerRequest)} + db ${fmt(row.dbCpuMsPerRequest)} ms${row.errors || row.non2xx ? `  (errors ${row.errors}, non-2xx ${row.non2xx} ${JSON.stringify(a.statuses)})` : ''}`,
    );
    return row;
  });
}
const fmt = (x) => (x === null ? '   -  ' : x.toFixed(2).padStart(6));

async function http(port, method, pathname, body, key = KEYS.dispatcher) {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (e.g. /metrics)
  }
  return { status: res.status, json, text };
}

function expect(condition, message) {
  if (!condition) throw new Error(`pre-flight check failed: ${message}`);
}

async function startService(kind, uri, { inspect = false } = {}) {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    MONGODB_URI: uri,
    API_KEYS,
    DB_SERVER_SELECTION_TIMEOUT_MS: '5000',
  };
  // p: the inspector on a random local port, so the stage profile samples this very process;
  // no session is attached outside the p rows, so the other rows pay nothing for it.
  const { child, tail } = await startChild(
    `service (${uri})`,
    [...SERVICE_NODE_FLAGS, ...(inspect ? ['--inspect=127.0.0.1:0'] : []), 'dist/main.js'],
    env,
    async () => (await http(port, 'GET', '/health/ready')).status === 200,
  );
  return { port, pid: child.pid, inspector: inspect ? inspectorUrl(tail()) : null };
}

async function benchServer(kind, options, encodeKey) {
  let o = options;
  log(`\n== ${kind}`);
  const out = { server: kind, rows: {}, checks: {}, seed: {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tas-bench-${kind}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  if (kind.startsWith('mongo-java-server')) process.env.JAVA_TOOL_OPTIONS ??= '-Xmx8g';
  let t = Date.now();
  const db = await startDatabase(kind, { dataDir });
  cleanups.push(() => db.stop());
  out.seed.databaseStartMs = Date.now() - t;

  // Two databases on the one server: the base set alone ("1 thousand"), and the base set plus
  // filler up to the large size. One service instance on each, so d compares them side by side.
  const large = kind === 'ferretdb' ? o.ferretdbLarge : o.large;
  const uri = `${db.uri}/tas_bench`;
  const uriLarge = `${db.uri}/tas_bench_large`;
  const client = new MongoClient(db.uri, { directConnection: true });
  await client.connect();
  cleanups.push(() => client.close());
  const small = client.db('tas_bench').collection('tool_health');
  const big = client.db('tas_bench_large').collection('tool_health');

  const service = await startService(kind, uri, { inspect: o.only.includes('p') });
  const servicePort = service.port;
  const large_ = o.only.includes('d') || o.only.includes('e') ? await startService(kind, uriLarge) : null;
  const largePort = large_?.port ?? null;
  // FerretDB: fewer, longer slices (a request can take a second; a slice must see it finish).
  o = { ...o, dbPid: db.pid, slowServer: kind === 'ferretdb' };
  const baseline = await startChild(
    'baseline',
    ['bench/baseline-server.mjs'],
    { ...process.env, MONGODB_URI: uri, PORT: '0', BENCH_KEY: KEYS.dispatcher },
    async (tail) => {
      const m = /LISTENING (\d+)/.exec(tail());
      return m ? Number(m[1]) : null;
    },
  );
  const baselinePort = baseline.answer;
  o.pidOf = { [servicePort]: service.pid, [baselinePort]: baseline.child.pid, ...(large_ ? { [largePort]: large_.pid } : {}) };

  const now = new Date();
  t = Date.now();
  out.seed.small = await seedBase(small, now, encodeKey);
  out.seed.smallMs = Date.now() - t;
  log(`  seeded ${out.seed.small.toLocaleString('en')} documents in ${out.seed.smallMs} ms`);

  const S = {
    success: postScenario('/v1/outcomes/success', bodies.success),
    failureDistinct: postScenario('/v1/outcomes/failure', bodies.failureDistinct),
    failureHot: postScenario('/v1/outcomes/failure', bodies.failureHot),
    annotate1: postScenario('/v1/manifest/annotate', bodies.annotate(1)),
    annotate50: postScenario('/v1/manifest/annotate', bodies.annotate(50)),
    annotate200: postScenario('/v1/manifest/annotate', bodies.annotate(200)),
    floor1: postScenario('/floor/annotate', bodies.annotate(1)),
    floor200: postScenario('/floor/annotate', bodies.annotate(200)),
    lookup: getScenario(lookupPath),
    batch100: postScenario('/v1/outcomes/batch', bodies.batch(100, 5), 256),
    write1: postScenario('/v1/health/mark-unavailable', bodies.systemWrite(1)),
    write200: postScenario('/v1/health/bulk/mark-unavailable', bodies.systemWrite(200), 64),
    annotateChanges200: postScenario('/v1/manifest/annotate/changes', bodies.annotateChanges(200, 5)),
    annotateChanges50: postScenario('/v1/manifest/annotate/changes', bodies.annotateChanges(50, 2)),
    floorChanges200: postScenario('/floor/annotate-changes', bodies.annotateChanges(200, 5)),
    batch50: postScenario('/v1/outcomes/batch', bodies.batch(50, 3), 256),
    // Enough distinct signatures that no slice runs out of new ones (each is spent once).
    newCooldownSmall: postScenario('/v1/outcomes/failure', bodies.failureNewCooldown('e-small'), 60_000),
    newCooldownLarge: postScenario('/v1/outcomes/failure', bodies.failureNewCooldown('e-large'), 60_000),
  };

  // Pre-flight: every scenario answers what it should, on this data, before anything is timed.
  const succ = await http(servicePort, 'POST', '/v1/outcomes/success', S.success.sample);
  expect(
    succ.status === 200 && succ.json.status === 'DEGRADED' && succ.json.changed.length === 0,
    `clean success → ${succ.status} ${succ.text}`,
  );
  const base = await http(baselinePort, 'POST', '/v1/outcomes/success', S.success.sample);
  expect(base.status === 200 && base.json.status === succ.json.status, `baseline → ${base.status} ${base.text}`);
  const distinct = await http(servicePort, 'POST', '/v1/outcomes/failure', S.failureDistinct.sample);
  expect(
    distinct.status === 200 && distinct.json.reason === 'IN_COOLDOWN' && distinct.json.cooldown?.scope === 'USER',
    `distinct failure → ${distinct.text}`,
  );
  const hot = await http(servicePort, 'POST', '/v1/outcomes/failure', S.failureHot.sample);
  expect(hot.status === 200 && hot.json.reason === 'IN_COOLDOWN' && hot.json.cooldown?.scope === 'GLOBAL', `hot failure → ${hot.text}`);
  const baseDistinct = await http(baselinePort, 'POST', '/v1/outcomes/failure', S.failureDistinct.sample);
  expect(
    baseDistinct.status === 200 && baseDistinct.json.reason === 'IN_COOLDOWN' && baseDistinct.json.cooldown?.scope === 'USER',
    `baseline distinct failure → ${baseDistinct.status} ${baseDistinct.text}`,
  );
  const lookup = await http(servicePort, 'GET', S.lookup.paths[0]);
  expect(lookup.status === 200 && lookup.json.status === 'DOWN', `lookup → ${lookup.status} ${lookup.text}`);
  const annotate = await http(servicePort, 'POST', '/v1/manifest/annotate', S.annotate200.sample);
  const annotateReady = annotate.status === 200 && Array.isArray(annotate.json?.tools) && annotate.json.tools.length === 200;
  if (!annotateReady) log(`  manifest annotation not measurable (${annotate.status} ${annotate.text.slice(0, 200)}): scenario c skipped`);
  out.checks.annotate200ResponseBytes = annotateReady ? Buffer.byteLength(annotate.text) : null;
  if (annotateReady) {
    // The c-baseline must judge the same tools the same way, or c2 compares unlike work.
    const naive = await http(baselinePort, 'POST', '/v1/manifest/annotate', S.annotate200.sample);
    expect(
      naive.status === 200 && naive.json.tools.map((x) => x.status).join() === annotate.json.tools.map((x) => x.status).join(),
      `c-baseline → ${naive.status} ${naive.text.slice(0, 200)}`,
    );
    out.checks.annotate200BaselineBytes = Buffer.byteLength(naive.text);
    // The c-floor answers the service's own bytes: the answers to the first variant of each size.
    const one = await http(servicePort, 'POST', '/v1/manifest/annotate', S.annotate1.sample);
    expect(one.status === 200 && one.json.tools.length === 1, `annotate 1 tool → ${one.status} ${one.text.slice(0, 200)}`);
    const stored = await http(baselinePort, 'POST', '/floor/answers', { 1: one.json, 200: annotate.json });
    expect(stored.status === 200 && stored.json.stored === 2, `c-floor answers → ${stored.status} ${stored.text}`);
    const floor = await http(baselinePort, 'POST', '/floor/annotate', S.annotate200.sample);
    expect(floor.status === 200 && floor.text === JSON.stringify(annotate.json), `c-floor → ${floor.status} ${floor.text.slice(0, 200)}`);
  }
  if (o.only.includes('e')) {
    const e = await http(servicePort, 'POST', '/v1/outcomes/failure', S.newCooldownSmall.sample);
    expect(
      e.status === 200 && e.json.reason === 'CLASSIFIED_BY_CHECKER' && e.json.cooldown !== null,
      `cooldown-setting failure → ${e.status} ${e.text}`,
    );
  }
  if (o.only.includes('f')) {
    const batch = await http(servicePort, 'POST', '/v1/outcomes/batch', S.batch100.sample);
    const results = batch.json?.results ?? [];
    expect(
      batch.status === 200 &&
        results.length === 100 &&
        results.slice(0, 5).every((r) => r.failure?.reason === 'IN_COOLDOWN') &&
        results.slice(5).every((r) => r.status === 200 && r.success.changed.length === 0),
      `batch of 100 → ${batch.status} ${batch.text.slice(0, 300)}`,
    );
  }
  if (o.only.includes('g')) {
    const one = await http(servicePort, 'POST', '/v1/health/mark-unavailable', S.write1.sample);
    expect(one.status === 200 && one.json.status === 'DOWN', `system write of 1 tool → ${one.status} ${one.text.slice(0, 200)}`);
    const many = await http(servicePort, 'POST', '/v1/health/bulk/mark-unavailable', S.write200.sample);
    expect(
      many.status === 200 &&
        many.json.results.length === 200 &&
        many.json.results.every((r) => r.status === 200 && r.entry.status === 'DOWN'),
      `bulk system write → ${many.status} ${many.text.slice(0, 200)}`,
    );
  }
  let changesReady = false;
  if (o.only.includes('c')) {
    const changes = await http(servicePort, 'POST', '/v1/manifest/annotate/changes', S.annotateChanges200.sample);
    changesReady =
      changes.status === 200 &&
      changes.json.plain === 195 &&
      changes.json.tools.length === 5 &&
      changes.json.tools.every((x) => x.doNotCall);
    expect(changesReady, `annotate/changes 200 tools, 5 problems → ${changes.status} ${changes.text.slice(0, 300)}`);
    out.checks.annotateChanges200ResponseBytes = Buffer.byteLength(changes.text);
    const stored = await http(baselinePort, 'POST', '/floor/answers', { 'changes:200': changes.json });
    expect(stored.status === 200, `c-changes floor answers → ${stored.status} ${stored.text}`);
    const floor = await http(baselinePort, 'POST', '/floor/annotate-changes', S.floorChanges200.sample);
    expect(
      floor.status === 200 && floor.text === JSON.stringify(changes.json),
      `c-changes floor → ${floor.status} ${floor.text.slice(0, 200)}`,
    );
  }
  const bad = await http(servicePort, 'POST', '/v1/outcomes/success', { toolName: 'bad name!' });
  expect(bad.status === 400 && bad.json.field === 'toolName', `bad input → ${bad.status} ${bad.text}`);
  out.checks.preflight = 'ok';

  // FerretDB answers an `$in` with a scan of the collection (D3a), a few per second: a handful
  // of connections, or every slice ends with a backlog that delays the next one.
  const C = kind === 'ferretdb' ? o.ferretdbConnections : o.connections;
  const L = kind === 'ferretdb' ? Math.min(o.ferretdbConnections, o.latencyConnections) : o.latencyConnections;
  // The JVM (mongo-java-server) and V8 both compile hot code as they go: the first scenario
  // would otherwise be measured on a cold server. Every kind of request, untimed, first.
  log(`  warming up (${o.jitWarmup} s, untimed) …`);
  const warm = [
    [baselinePort, S.success],
    [servicePort, S.success],
    [servicePort, S.failureDistinct],
    [baselinePort, S.failureDistinct],
    [servicePort, S.failureHot],
    [servicePort, S.lookup],
  ];
  if (annotateReady) warm.push([servicePort, S.annotate50]);
  for (const [port, scenario] of warm)
    await cannon(port, scenario, { duration: Math.max(1, Math.round(o.jitWarmup / warm.length)), connections: C, key: KEYS.dispatcher });

  const versionsOf = async () => small.countDocuments({ toolName: { $regex: '^succ_' }, version: { $gt: 1 } });
  if (o.only.includes('a')) {
    const before = await versionsOf();
    [out.rows.aBaseline, out.rows.aService] = await measureGroup(
      [
        { label: 'a  clean success — baseline (node:http)', port: baselinePort, scenario: S.success },
        { label: 'a  clean success — service', port: servicePort, scenario: S.success, serviceGc: true },
      ],
      o,
      C,
    );
    out.checks.cleanSuccessWroteNothing = before === 0 && (await versionsOf()) === 0;
  }
  if (o.only.includes('b')) {
    const hotId = encodeKey({ scope: 'GLOBAL', scopeId: null, toolName: BASE.hotTool });
    const hitsBefore = (await small.findOne({ _id: hotId }))?.cooldowns?.[0]?.hits ?? 0;
    // A bare server answers the same distinct-keys requests by the same reads, in the same
    // slices: b2's floor on this machine at this load (P367), printed beside b2, not judged.
    [out.rows.bDistinct, out.rows.bHot, out.rows.bFloor] = await measureGroup(
      [
        { label: 'b  failure, distinct keys in cooldown', port: servicePort, scenario: S.failureDistinct, serviceGc: true },
        { label: 'b  failure, one hot GLOBAL key in cooldown', port: servicePort, scenario: S.failureHot, serviceGc: true },
        { label: 'b  failure, distinct keys — floor (node:http, reads only)', port: baselinePort, scenario: S.failureDistinct },
      ],
      o,
      C,
    );
    await sleep(1000); // let the D10b buffer flush
    const hotDoc = await small.findOne({ _id: hotId });
    out.checks.hotKeyHitsCounted = (hotDoc?.cooldowns?.[0]?.hits ?? 0) - hitsBefore;
    out.checks.hotKeyWrites = hotDoc?.version ?? null;
  }
  if (o.only.includes('c') && annotateReady) {
    // The c-floor in the same slices: no database, no logic, the same bytes in and out (P116).
    [out.rows.c1, out.rows.c50, out.rows.c200, out.rows.c1Floor, out.rows.c200Floor] = await measureGroup(
      [
        { label: 'c  annotate 1 tool', port: servicePort, scenario: S.annotate1 },
        { label: 'c  annotate 50 tools', port: servicePort, scenario: S.annotate50 },
        { label: 'c  annotate 200 tools', port: servicePort, scenario: S.annotate200 },
        { label: 'c  floor: 1 tool (node:http, no DB, no logic)', port: baselinePort, scenario: S.floor1 },
        { label: 'c  floor: 200 tools (node:http, no DB, no logic)', port: baselinePort, scenario: S.floor200 },
      ],
      o,
      L,
    );
    // c2: throughput against the naive ceiling for this route, side by side at full load.
    [out.rows.c200Baseline, out.rows.c200Service] = await measureGroup(
      [
        { label: 'c  annotate 200 tools — baseline (node:http)', port: baselinePort, scenario: S.annotate200 },
        { label: 'c  annotate 200 tools — service', port: servicePort, scenario: S.annotate200 },
      ],
      o,
      C,
    );
  }
  if (o.only.includes('c') && changesReady) {
    // c-changes (D23): the 200-tool turn by difference against the full 1-tool turn, and its own floor.
    [out.rows.c1Again, out.rows.cChanges200, out.rows.cChanges50, out.rows.cChanges200Floor] = await measureGroup(
      [
        { label: 'c  annotate 1 tool', port: servicePort, scenario: S.annotate1 },
        { label: 'c  changes only: 200 tools, 5 problems', port: servicePort, scenario: S.annotateChanges200 },
        { label: 'c  changes only: 50 tools, 2 problems', port: servicePort, scenario: S.annotateChanges50 },
        { label: 'c  floor: changes only, 200 tools (node:http)', port: baselinePort, scenario: S.floorChanges200 },
      ],
      o,
      L,
    );
  }
  if (o.only.includes('f')) {
    // f (D22): reports in batches of 100 against one report per request, at full load, in one group.
    [out.rows.fSingle, out.rows.fBatch100, out.rows.fBatch50] = await measureGroup(
      [
        { label: 'f  clean success, one per request', port: servicePort, scenario: S.success },
        { label: 'f  batch of 100 (95 successes, 5 failures)', port: servicePort, scenario: S.batch100 },
        { label: 'f  batch of 50 (47 successes, 3 failures)', port: servicePort, scenario: S.batch50 },
      ],
      o,
      C,
    );
  }
  // s (issue 39, bench/stats.mjs): reports with durationMs against the same without.
  if (o.only.includes('s'))
    Object.assign(
      out.rows,
      await measureStatsRows({ measureGroup, scenarios: statsScenarios({ postScenario, bodies }), servicePort, o, connections: C }),
    );
  if (o.only.includes('g')) {
    // g (D22): one tool's system write against 200 tools' in one bulk write.
    [out.rows.gOne, out.rows.gBulk200] = await measureGroup(
      [
        { label: 'g  system write, 1 tool', port: servicePort, scenario: S.write1 },
        { label: 'g  bulk system write, 200 tools', port: servicePort, scenario: S.write200 },
      ],
      o,
      L,
    );
  }
  if (o.only.includes('p') && service.inspector) {
    // p (issue 38): the service's CPU per request broken into its stages by V8's sampling
    // profiler on the running service, one scenario at a time, after every row above warmed it.
    const seconds = Math.max(2, Math.round(o.duration / 2));
    const profiled = [
      { id: 'single', label: 'p  clean success', scenario: S.success },
      { id: 'batch100', label: 'p  batch of 100', scenario: S.batch100 },
      ...(annotateReady ? [{ id: 'annotate1', label: 'p  annotate 1 tool', scenario: S.annotate1 }] : []),
      ...(changesReady
        ? [
            { id: 'changes200', label: 'p  changes only, 200 tools', scenario: S.annotateChanges200 },
            { id: 'changes50', label: 'p  changes only, 50 tools', scenario: S.annotateChanges50 },
          ]
        : []),
      ...(o.only.includes('g')
        ? [
            { id: 'write1', label: 'p  system write, 1 tool', scenario: S.write1 },
            { id: 'write200', label: 'p  bulk system write, 200 tools', scenario: S.write200 },
          ]
        : []),
    ];
    out.profile = await profileStages({
      url: service.inspector,
      scenarios: profiled,
      cpuMs: () => cpuMs(service.pid),
      drive: async (sc) => {
        const before = cpuMs(o.dbPid);
        const { latencies } = await cannon(servicePort, sc.scenario, { duration: seconds, connections: L, key: KEYS.dispatcher });
        const dbCpu = cpuMs(o.dbPid) - before;
        sc.dbCpuMsPerRequest = latencies.length ? dbCpu / latencies.length : null;
        return { ok: latencies.length };
      },
    });
    const unprofiled = {
      single: 'fSingle',
      batch100: 'fBatch100',
      annotate1: 'c1Again',
      changes200: 'cChanges200',
      changes50: 'cChanges50',
      write1: 'gOne',
      write200: 'gBulk200',
    };
    for (const sc of profiled) {
      const row = out.profile[sc.id];
      if (!row) continue;
      row.dbCpuMsPerRequest = round(sc.dbCpuMsPerRequest, 4);
      scaleStages(row, out.rows[unprofiled[sc.id]]?.cpuMsPerRequest ?? null);
    }
    log(printStages(kind, out.profile));
  }
  if (largePort && kind !== 'mongo-java-server' && o.only.includes('d')) {
    // H2 (issue 27): the lookup's database CPU on the large database while it is still fresh
    // (the base set only), to set beside the same lookup once the million documents are in.
    await seedBase(big, now, encodeKey);
    await cannon(largePort, S.lookup, { duration: Math.max(1, Math.round(o.jitWarmup / 4)), connections: L, key: KEYS.dispatcher });
    [out.rows.dFresh] = await measureGroup(
      [{ label: `d  lookup, fresh database (${BASE.total.toLocaleString('en')} documents)`, port: largePort, scenario: S.lookup }],
      o,
      L,
    );
  }
  if (largePort) {
    // The large collection is seeded only now, so a–c ran on a quiet database; then the
    // database is left to settle (a JVM collects garbage for a while after a million inserts).
    t = Date.now();
    await seedBase(big, now, encodeKey);
    let last = 0;
    const grown = await growTo(big, large, now, {
      encodeKey,
      onProgress: (n) => {
        if (n - last >= 200_000) {
          last = n;
          log(`  … ${n.toLocaleString('en')} filler documents (${Math.round(n / ((Date.now() - t) / 1000)).toLocaleString('en')}/s)`);
        }
      },
    });
    out.seed.large = await big.countDocuments({});
    out.seed.largeMs = Date.now() - t;
    out.seed.largeInsertPerSecond = Math.round((grown.inserted / grown.ms) * 1000);
    log(
      `  seeded ${out.seed.large.toLocaleString('en')} documents in ${out.seed.largeMs} ms (${out.seed.largeInsertPerSecond.toLocaleString('en')}/s)`,
    );
    out.seed.settleMs = await settle(db.pid);
    const lookupLarge = await http(largePort, 'GET', S.lookup.paths[0]);
    expect(
      lookupLarge.status === 200 && lookupLarge.json.status === 'DOWN',
      `lookup on the large collection → ${lookupLarge.status} ${lookupLarge.text}`,
    );
    await cannon(largePort, S.lookup, { duration: Math.max(1, Math.round(o.jitWarmup / 4)), connections: L, key: KEYS.dispatcher });
    [out.rows.dSmall, out.rows.dLarge] = await measureGroup(
      [
        { label: `d  lookup, ${out.seed.small.toLocaleString('en')} documents`, port: servicePort, scenario: S.lookup },
        { label: `d  lookup, ${out.seed.large.toLocaleString('en')} documents`, port: largePort, scenario: S.lookup },
      ],
      o,
      L,
    );
    if (o.only.includes('a')) {
      [out.rows.aServiceSmall, out.rows.aServiceLarge] = await measureGroup(
        [
          { label: `a  clean success — service, ${out.seed.small.toLocaleString('en')} docs`, port: servicePort, scenario: S.success },
          { label: `a  clean success — service, ${out.seed.large.toLocaleString('en')} docs`, port: largePort, scenario: S.success },
        ],
        o,
        C,
      );
    }
    if (o.only.includes('e')) {
      // A write path at both sizes: failure reports that spawn and set a new cooldown.
      [out.rows.eSmall, out.rows.eLarge] = await measureGroup(
        [
          {
            label: `e  failure setting a cooldown, ${out.seed.small.toLocaleString('en')} docs`,
            port: servicePort,
            scenario: S.newCooldownSmall,
          },
          {
            label: `e  failure setting a cooldown, ${out.seed.large.toLocaleString('en')} docs`,
            port: largePort,
            scenario: S.newCooldownLarge,
          },
        ],
        o,
        L,
      );
    }
  }

  // /metrics: protected, and what one scrape costs on the largest collection of the run.
  const metricsPort = largePort ?? servicePort;
  t = Date.now();
  const scrape = await http(metricsPort, 'GET', '/metrics', undefined, KEYS.audit);
  out.metrics = {
    status: scrape.status,
    firstScrapeMs: Date.now() - t,
    bytes: scrape.text.length,
    documents: largePort ? out.seed.large : out.seed.small,
  };
  if (scrape.status === 200) {
    t = Date.now();
    await http(metricsPort, 'GET', '/metrics', undefined, KEYS.audit);
    out.metrics.cachedScrapeMs = Date.now() - t;
    out.metrics.withoutKey = (await http(metricsPort, 'GET', '/metrics', undefined, '')).status;
    out.metrics.withDispatcherKey = (await http(metricsPort, 'GET', '/metrics', undefined, KEYS.dispatcher)).status;
    const small = (await http(servicePort, 'GET', '/metrics', undefined, KEYS.audit)).text;
    out.metrics.samples = Object.fromEntries(
      small
        .split('\n')
        .filter((l) => /^tas_(cooldown_hits_total|diagnoses_total|documents)\b/.test(l) && !/ 0$/.test(l))
        .map((l) => {
          const i = l.lastIndexOf(' ');
          return [l.slice(0, i), Number(l.slice(i + 1))];
        }),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// report

const pct = (x) => (x === null || x === undefined ? '-' : `${Math.round(x * 100)} %`);
/** Where a row's tail waited (tail.mjs): shown beside the targets on p99. */
const tailNote = (row) =>
  row.tail &&
  `slowest 1 %: ${pct(row.tail.slowestOverlappedLoadGeneratorGc)} in a load-generator GC pause (all: ${pct(row.tail.allOverlappedLoadGeneratorGc)}); ` +
    `service GC ${row.tail.serviceGcPerSecond ?? '-'}/s, mean ${row.tail.serviceGcMeanMs ?? '-'} ms`;
// The ratio is judged on the service alone; the floor says what the machine's own tail is for the
// same reads at the same load, in ms, since a slower server has a larger p50 to divide it by.
const floorNote = (service, floor) =>
  `floor (bare node:http, the same reads): p99 ${floor.p99.toFixed(2)} ms at p50 ${floor.p50.toFixed(2)} (${(floor.p99 / floor.p50).toFixed(2)}×), the service's p99 ${service.p99.toFixed(2)} ms`;
const perTool = (row) => row && row.cpuMsPerRequest !== null && row.cpuMsPerRequest / 200;
/** Per server; `cross` targets compare this server's rows with the memory backend's. */
const TARGETS = [
  {
    id: 'a-throughput',
    what: 'a: service ≥ 1.0× baseline req/s',
    ratio: (r) => r.aService && r.aBaseline && r.aService.rps / r.aBaseline.rps,
    ok: (x) => x >= 1.0,
  },
  {
    id: 'a-p99',
    what: 'a: service p99 ≤ 1.5× baseline p99',
    ratio: (r) => r.aService && r.aBaseline && r.aService.p99 / r.aBaseline.p99,
    ok: (x) => x <= 1.5,
    note: (r) =>
      r.aService?.tail &&
      r.aBaseline?.tail &&
      `slowest 1 % in a load-generator GC pause: baseline ${pct(r.aBaseline.tail.slowestOverlappedLoadGeneratorGc)}, service ${pct(r.aService.tail.slowestOverlappedLoadGeneratorGc)}`,
  },
  {
    id: 'b-hot',
    what: 'b: hot key ≥ 0.5× distinct keys req/s',
    ratio: (r) => r.bHot && r.bDistinct && r.bHot.rps / r.bDistinct.rps,
    ok: (x) => x >= 0.5,
  },
  {
    id: 'b2-tail',
    what: 'b2: distinct keys in cooldown p99 ≤ 3× p50',
    ratio: (r) => r.bDistinct && r.bDistinct.p99 / r.bDistinct.p50,
    ok: (x) => x <= 3,
    note: (r) => r.bDistinct && [r.bFloor && floorNote(r.bDistinct, r.bFloor), tailNote(r.bDistinct)].filter(Boolean).join('; '),
  },
  {
    id: 'c1',
    what: 'c1: 200 tools ≤ 3× latency (p50) of 1 tool',
    ratio: (r) => r.c200 && r.c1 && r.c200.p50 / r.c1.p50,
    ok: (x) => x <= 3,
  },
  {
    id: 'c2',
    what: 'c2: 200 tools ≥ 0.8× c-baseline req/s',
    ratio: (r) => r.c200Service && r.c200Baseline && r.c200Service.rps / r.c200Baseline.rps,
    ok: (x) => x >= 0.8,
  },
  {
    id: 'c3-cpu',
    what: 'c3: service CPU ms per 200-tool annotation ≤ 1.5',
    ratio: (r) => r.c200 && r.c200.cpuMsPerRequest,
    ok: (x) => x <= 1.5,
    note: (r) => r.c200 && `${fmt(perTool(r.c200) * 1000)} µs/tool`,
  },
  {
    id: 'c3-db',
    what: 'c3: database CPU ms per 200-tool annotation ≤ 1.5',
    ratio: (r) => r.c200 && r.c200.dbCpuMsPerRequest,
    ok: (x) => x <= 1.5,
    note: (r) => r.c200 && r.c200.dbCpuMsPerRequest !== null && `${fmt((r.c200.dbCpuMsPerRequest / 200) * 1000)} µs/tool`,
  },
  // No targets: what the same bytes cost with no database and no logic, the floor under c1 and c3 (P116).
  {
    id: 'c1-floor',
    info: true,
    what: 'c1 floor: 200 tools vs 1 tool p50, no DB, no logic',
    ratio: (r) => r.c200Floor && r.c1Floor && r.c200Floor.p50 / r.c1Floor.p50,
  },
  {
    id: 'c3-floor',
    info: true,
    what: 'c3 floor: CPU ms per 200-tool answer, no DB, no logic',
    ratio: (r) => r.c200Floor && r.c200Floor.cpuMsPerRequest,
    note: (r) => r.c200 && r.c200Floor && `service ${fmt(r.c200.cpuMsPerRequest / r.c200Floor.cpuMsPerRequest).trim()}× the floor`,
  },
  {
    id: 'c-changes-p50',
    what: 'c-changes: 200 tools (5 problems) ≤ 2× p50 of 1 tool',
    ratio: (r) => r.cChanges200 && r.c1Again && r.cChanges200.p50 / r.c1Again.p50,
    ok: (x) => x <= 2,
  },
  {
    id: 'c-changes-cpu',
    what: 'c-changes: service CPU ms per request ≤ 0.8',
    ratio: (r) => r.cChanges200 && r.cChanges200.cpuMsPerRequest,
    ok: (x) => x <= 0.8,
    note: (r) => r.cChanges200 && r.cChanges200Floor && `floor ${fmt(r.cChanges200Floor.cpuMsPerRequest).trim()} ms`,
  },
  {
    id: 'c-changes-bytes',
    what: 'c-changes: answer ≤ 2 KB (bytes / 2048)',
    ratio: (r, _m, checks) => checks?.annotateChanges200ResponseBytes && checks.annotateChanges200ResponseBytes / 2048,
    ok: (x) => x <= 1,
    note: (_r, _m, checks) => checks?.annotateChanges200ResponseBytes && `${checks.annotateChanges200ResponseBytes} bytes`,
  },
  {
    id: 'f-cpu',
    what: 'f: CPU per outcome in batches of 100 ≤ 0.15× a single clean success',
    ratio: (r) => r.fBatch100 && r.fSingle && r.fBatch100.cpuMsPerRequest / 100 / r.fSingle.cpuMsPerRequest,
    ok: (x) => x <= 0.15,
    note: (r) => r.fBatch100 && `${fmt((r.fBatch100.cpuMsPerRequest / 100) * 1000).trim()} µs/outcome`,
  },
  {
    id: 'f-throughput',
    what: 'f: outcomes/s in batches ≥ 5× single reports/s',
    ratio: (r) => r.fBatch100 && r.fSingle && (r.fBatch100.rps * 100) / r.fSingle.rps,
    ok: (x) => x >= 5,
    note: (r) => r.fBatch100 && `${(r.fBatch100.rps * 100).toLocaleString('en')} outcomes/s`,
  },
  // The fixed price of a request (issue 38): what one request costs whatever its size.
  {
    id: 'c1-cpu',
    what: 'c: service CPU ms per 1-tool annotation ≤ 0.3',
    ratio: (r) => r.c1Again && r.c1Again.cpuMsPerRequest,
    ok: (x) => x <= 0.3,
  },
  {
    id: 'single-cpu',
    what: 'f: service CPU ms per single clean success ≤ 0.15',
    ratio: (r) => r.fSingle && r.fSingle.cpuMsPerRequest,
    ok: (x) => x <= 0.15,
  },
  {
    id: 'g-cpu-per-tool',
    what: "g: service CPU per tool in a bulk of 200 ≤ 0.1× one mark's",
    ratio: (r) => r.gBulk200 && r.gOne && r.gBulk200.cpuMsPerRequest / 200 / r.gOne.cpuMsPerRequest,
    ok: (x) => x <= 0.1,
    // The database's share beside it, not judged: mongo-java-server's own CPU per document.
    note: (r) =>
      r.gBulk200 &&
      r.gOne &&
      `service ${fmt((r.gBulk200.cpuMsPerRequest / 200) * 1000).trim()} µs/tool vs ${fmt(r.gOne.cpuMsPerRequest * 1000).trim()} µs/mark; database ${r.gBulk200.dbCpuMsPerRequest === null ? '-' : fmt((r.gBulk200.dbCpuMsPerRequest / 200) * 1000).trim()} µs/tool vs ${r.gOne.dbCpuMsPerRequest === null ? '-' : fmt(r.gOne.dbCpuMsPerRequest * 1000).trim()} µs/mark`,
  },
  {
    id: 'g-bulk',
    what: 'g: bulk write of 200 tools ≤ 10× p50 of 1 tool',
    ratio: (r) => r.gBulk200 && r.gOne && r.gBulk200.p50 / r.gOne.p50,
    ok: (x) => x <= 10,
  },
  {
    id: 'd-h2-db',
    what: 'H2: db CPU per lookup at the large size ≤ 2× fresh',
    ratio: (r) => r.dLarge && r.dFresh && r.dLarge.dbCpuMsPerRequest / r.dFresh.dbCpuMsPerRequest,
    ok: (x) => x <= 2,
    note: (r) => r.dLarge && r.dFresh && `${fmt(r.dFresh.dbCpuMsPerRequest).trim()} → ${fmt(r.dLarge.dbCpuMsPerRequest).trim()} ms`,
  },
  {
    id: 'd-1m',
    what: 'd: lookup at the large size ≤ 1.3× latency (p50) of 1 k',
    ratio: (r) => r.dLarge && r.dSmall && r.dLarge.p50 / r.dSmall.p50,
    ok: (x) => x <= 1.3,
  },
  {
    id: 'a-1m',
    what: 'a: clean success at the large size ≤ 1.3× p50 of 1 k',
    ratio: (r) => r.aServiceLarge && r.aServiceSmall && r.aServiceLarge.p50 / r.aServiceSmall.p50,
    ok: (x) => x <= 1.3,
  },
  {
    id: 'e-1m',
    what: 'e: cooldown-setting failure, large ≤ 1.3× p50 of 1 k',
    ratio: (r) => r.eLarge && r.eSmall && r.eLarge.p50 / r.eSmall.p50,
    ok: (x) => x <= 1.3,
  },
  {
    id: 'a-vs-memory',
    what: 'a: this server ≥ 0.5× memory backend req/s',
    cross: true,
    ratio: (r, memory) => r.aService && memory?.aService && r.aService.rps / memory.aService.rps,
    ok: (x) => x >= 0.5,
  },
];

TARGETS.push(...STATS_TARGETS);

function machineFacts() {
  const cpus = os.cpus();
  let commit = null;
  let dirty = null;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim().length > 0;
  } catch {
    // not a git checkout
  }
  let java = null;
  try {
    java = spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr.split('\n')[0];
  } catch {
    // no java
  }
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? null,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    loadavgAtStart: os.loadavg().map((x) => round(x)),
    java,
    commit,
    dirty,
  };
}

function printReport(report) {
  const lines = [];
  const head = `${'server'.padEnd(20)} ${'scenario'.padEnd(50)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'cpu/req'.padStart(8)} ${'db/req'.padStart(7)} ${'conns'.padStart(5)} ${'errors'.padStart(6)}`;
  lines.push('', head, '-'.repeat(head.length));
  for (const s of report.servers) {
    for (const row of Object.values(s.rows)) {
      lines.push(
        `${s.server.padEnd(20)} ${row.label.padEnd(50)} ${String(row.rps).padStart(7)} ${fmt(row.p50).padStart(7)} ${fmt(row.p99).padStart(7)} ${fmt(row.cpuMsPerRequest).padStart(8)} ${fmt(row.dbCpuMsPerRequest).padStart(7)} ${String(row.connections).padStart(5)} ${String(row.errors + row.non2xx).padStart(6)}`,
      );
    }
  }
  lines.push('(cpu/req, db/req: CPU milliseconds per answered request of the server process and of the database server)');
  for (const s of report.servers) if (s.profile) lines.push('', printStages(s.server, s.profile));
  lines.push('', 'ratios (targets for both mongo-java-server backends; FerretDB, when asked for, reported beside):');
  for (const s of report.servers) {
    for (const r of s.ratios) {
      const mark = r.value === null ? 'n/a ' : r.info ? 'INFO' : r.met ? 'MET ' : 'MISS';
      lines.push(
        `  ${s.server.padEnd(20)} ${mark} ${r.what.padEnd(56)} ${r.value === null ? '-' : r.value.toFixed(2)}${r.note ? `  (${r.note})` : ''}`,
      );
    }
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  const build = ensureBuild(o.build);
  const encodeKey = loadEncodeKey();
  const report = { startedAt: startedAt.toISOString(), finishedAt: null, machine: machineFacts(), build, options: o, servers: [] };
  log(
    `machine: ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memoryGiB} GiB, node ${report.machine.node}, ${report.machine.os}`,
  );
  // A row with too few answered requests (FerretDB at a second per request) gives no ratio.
  const measuredRows = (result) =>
    Object.fromEntries(Object.entries(result?.rows ?? {}).filter(([, row]) => row.rps > 0 && row.p50 !== null && row.requests >= 20));
  for (const kind of o.servers) report.servers.push(await benchServer(kind, o, encodeKey));
  // i: the calendar feed with 150 daily series (its own database and service, bench/calendar-feed.mjs).
  if (o.only.includes('i')) report.calendarFeed = await calendarFeedBench({ log });
  // w: a healthy webhook endpoint beside 20 that hang (bench/webhook-isolation.mjs).
  if (o.only.includes('w')) report.webhookIsolation = await webhookIsolationBench({ log });
  // r: webhook delivery after a graceful stop and after a kill (bench/webhook-resume.mjs).
  if (o.only.includes('r')) report.webhookResume = await webhookResumeBench({ log });
  const memory = measuredRows(report.servers.find((s) => s.server === 'mongo-java-server'));
  for (const result of report.servers) {
    const rows = measuredRows(result);
    result.ratios = TARGETS.filter((target) => !target.cross || result.server !== 'mongo-java-server').map((target) => {
      const raw = target.ratio(rows, memory, result.checks);
      const value = raw === undefined || raw === null || raw === false || !Number.isFinite(raw) ? null : round(raw, 3);
      const met = value === null || target.info ? null : target.ok(value);
      return {
        id: target.id,
        what: target.what,
        value,
        met,
        info: target.info ?? false,
        note: (value !== null && target.note?.(rows, memory, result.checks)) || null,
      };
    });
  }
  report.finishedAt = new Date().toISOString();
  printReport(report);
  fs.mkdirSync(RESULTS, { recursive: true });
  const file = o.out ?? path.join(RESULTS, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  log(`results: ${path.relative(process.cwd(), file)}`);
}

main()
  .catch((error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
  });
