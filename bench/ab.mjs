// Two builds of the service against each other, in one run: the service CPU per request of each,
// measured in interleaved slices (A B B A, `--rounds` times) on one database with the bench's seed.
//
// The machine this is measured on drifts: the node:http floors of `npm run bench` have moved by
// half between runs an hour apart. A change's effect read as the difference of two runs is then
// mostly the machine's; both builds measured in the same minutes is not. Used for P362.
//
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   (cd /tmp/before && npx nest build) && npx nest build
//   node bench/ab.mjs /tmp/before/dist dist [--server mongo-java-server-h2] [--only success,batch100]
//                     [--requests 4000] [--rounds 3] [--flags-a "…"] [--flags-b "…"]
//
// One build against itself with other Node.js flags (P365): pass `dist dist` and `--flags-b`,
// the flags that replace SERVICE_NODE_FLAGS for B (space-separated).
//
// Each row prints the mean and the median of the slices per build and B/A of the medians. The
// load generator runs in this process (8 keep-alive connections); only the services' own CPU is
// read, from /proc, so the client's share of the two cores does not count, but it does compete.
// Short slices are noisy: one build against itself (A/A) at 800 requests × 1 round read 0.83–0.96;
// at the defaults (4 000 × 3 rounds) the P362 rows agreed across both backends. Run an A/A first.
//
// The bulk row (write200) needs a longer request deadline than the service's 700 ms: with two
// services on one database its warm-up queues bulks past it and stops on a 503. Run it as
// `REQUEST_DEADLINE_MS=10000 node bench/ab.mjs … --only write200`; an A/A of that row read 1.11 (P373).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { freePort, startDatabase } from '../scripts/db/servers.mjs';
import { SERVICE_NODE_FLAGS } from '../scripts/service-node-flags.mjs';
import { bodies } from './bodies.mjs';
import { loadEncodeKey, seedBase } from './seed.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 8;

function options(argv) {
  const o = {
    server: 'mongo-java-server',
    only: null,
    requests: 4000,
    rounds: 3,
    builds: [],
    flags: [SERVICE_NODE_FLAGS, SERVICE_NODE_FLAGS],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--server') o.server = argv[++i];
    else if (arg === '--only') o.only = argv[++i].split(',');
    else if (arg === '--requests') o.requests = Number(argv[++i]);
    else if (arg === '--rounds') o.rounds = Number(argv[++i]);
    else if (arg === '--flags-a' || arg === '--flags-b') o.flags[arg === '--flags-a' ? 0 : 1] = argv[++i].split(' ').filter(Boolean);
    else o.builds.push(path.resolve(arg));
  }
  if (o.builds.length !== 2)
    throw new Error('usage: node bench/ab.mjs <dist A> <dist B> [--server kind] [--only rows] [--requests n] [--rounds n]');
  for (const dist of o.builds)
    if (!fs.existsSync(path.join(dist, 'main.js'))) throw new Error(`${dist}/main.js is missing: build it first`);
  return o;
}

const KEY = 'bench-ab-dispatcher-key';
const sha = (s) => createHash('sha256').update(s).digest('hex');

/** The rows: requests of `npm run bench`'s f, b and c rows, built by its own bodies; `per` of them per request sent. */
const ROWS = {
  success: { path: '/v1/outcomes/success', body: bodies.success, per: 1 },
  failure: { path: '/v1/outcomes/failure', body: bodies.failureDistinct, per: 1 },
  batch100: { path: '/v1/outcomes/batch', body: bodies.batch(100, 5), per: 40 },
  annotate1: { path: '/v1/manifest/annotate', body: bodies.annotate(1), per: 1 },
  annotate200: { path: '/v1/manifest/annotate', body: bodies.annotate(200), per: 1 },
  changes200: { path: '/v1/manifest/annotate/changes', body: bodies.annotateChanges(200, 5), per: 1 },
  write1: { path: '/v1/health/mark-unavailable', body: bodies.systemWrite(1), per: 1 },
  // Warmed until every history is full (20 items: 64 scopes × 20 marks), as in a long failure storm.
  write200: { path: '/v1/health/bulk/mark-unavailable', body: bodies.systemWrite(200), per: 50, warmup: 1300 },
};

/** User + system CPU of a process so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function startService(dist, flags, uri) {
  const port = await freePort();
  const child = spawn(process.execPath, [...flags, path.join(dist, 'main.js')], {
    cwd: path.dirname(dist),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      PORT: String(port),
      MONGODB_URI: uri,
      API_KEYS: `bench-ab:dispatcher:${sha(KEY)}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let tries = 0; ; tries++) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { port, child };
    if (tries > 240) throw new Error(`${dist} not ready in 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function post(agent, port, route, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'x-api-key': KEY, 'content-length': Buffer.byteLength(data) };
    const req = http.request({ host: '127.0.0.1', port, path: route, method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${route} answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function drive(agent, port, row, count, offset) {
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent < count) await post(agent, port, row.path, row.body(offset + sent++));
    }),
  );
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  process.chdir(ROOT);
  const o = options(process.argv.slice(2));
  if (o.server.startsWith('mongo-java-server')) process.env.JAVA_TOOL_OPTIONS ??= '-Xmx8g';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-bench-ab-'));
  const db = await startDatabase(o.server, { dataDir });
  const client = await new MongoClient(db.uri, { directConnection: true }).connect();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const services = [];
  try {
    // A database each: a write's kept documents (P354) would otherwise be moved by the other build's writes.
    for (const [i, dist] of o.builds.entries()) {
      await seedBase(client.db(`tas_bench_ab_${i}`).collection('tool_health'), new Date(), loadEncodeKey());
      services.push(await startService(dist, o.flags[i], `${db.uri}/tas_bench_ab_${i}`));
    }
    const [a, b] = services;
    console.log(
      `A ${o.builds[0]} ${o.flags[0].join(' ')}\nB ${o.builds[1]} ${o.flags[1].join(' ')}\n${o.server}, ${o.rounds} × A B B A, ms of service CPU per request`,
    );
    for (const name of o.only ?? Object.keys(ROWS)) {
      const row = ROWS[name];
      if (!row) throw new Error(`no row ${name}; rows: ${Object.keys(ROWS).join(', ')}`);
      const count = Math.max(1, Math.round(o.requests / row.per));
      for (const s of services) await drive(agent, s.port, row, row.warmup ?? count, 0); // JIT warm-up, untimed
      const slices = { A: [], B: [] };
      for (let round = 0; round < o.rounds; round++)
        for (const [label, s] of [
          ['A', a],
          ['B', b],
          ['B', b],
          ['A', a],
        ]) {
          const before = cpuMs(s.child.pid);
          await drive(agent, s.port, row, count, (round + 1) * 1_000_000);
          slices[label].push((cpuMs(s.child.pid) - before) / count);
        }
      const [ma, mb] = [median(slices.A), median(slices.B)];
      console.log(
        `${name.padEnd(10)} A mean ${mean(slices.A).toFixed(4)} median ${ma.toFixed(4)}   B mean ${mean(slices.B).toFixed(4)} median ${mb.toFixed(4)}   B/A ${(mb / ma).toFixed(3)}`,
      );
    }
  } finally {
    for (const s of services) {
      s.child.kill('SIGTERM');
      await new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once('exit', r)));
    }
    agent.destroy();
    await client.close();
    await db.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
