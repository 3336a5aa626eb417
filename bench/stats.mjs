// Issue 39: what the outcome statistics cost.
//
// In `npm run bench` (row s, hooked into bench/run.mjs): a batch of 100 reports with durationMs
// against the same batch without, and a clean success with durationMs against one without, in one
// interleaved group on each server — the service CPU per outcome is the figure (targets ≤ 1.1× and
// ≤ 1.05×).
//
// Alone, `node bench/stats.mjs [--tools 10000] [--tenants 20] [--flush-tools 2000] [--flush-tenants 5]`
// (after `npx nest build`): the heap an instance holds for a minute of counts over tools × tenants
// keys, the CPU of one record(), and the cost of a flush — per bucket document upserted, on
// mongo-java-server's memory backend and on its H2 backend (first flush: inserts; second: updates
// of the same documents, the steady state) — written to bench/results/stats-<time>.json. The
// writes per second at 100 000 calls/s are computed from these in docs/scaling.md.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// row s, inside bench/run.mjs

/** A duration that spreads over several latency buckets, the same for the same report. */
const durationOf = (k) => 40 + ((k * 7919) % 4000);

/** The scenarios of row s, built with run.mjs's own helpers and bodies. */
export function statsScenarios({ postScenario, bodies }) {
  const timed = (make) => (i) => ({ ...make(i), durationMs: durationOf(i) });
  const timedBatch = (size, failures) => (i) => {
    const batch = bodies.batch(size, failures)(i);
    return { items: batch.items.map((item, j) => ({ ...item, durationMs: durationOf(i * size + j) })) };
  };
  return {
    single: postScenario('/v1/outcomes/success', bodies.success),
    singleTimed: postScenario('/v1/outcomes/success', timed(bodies.success)),
    batch: postScenario('/v1/outcomes/batch', bodies.batch(100, 5), 256),
    batchTimed: postScenario('/v1/outcomes/batch', timedBatch(100, 5), 256),
  };
}

/** Row s: each pair measured in one group, so the two sides share the machine's mood. */
export async function measureStatsRows({ measureGroup, scenarios, servicePort, o, connections }) {
  const rows = {};
  [rows.sSingle, rows.sSingleTimed] = await measureGroup(
    [
      { label: 's  clean success, no durationMs', port: servicePort, scenario: scenarios.single },
      { label: 's  clean success with durationMs', port: servicePort, scenario: scenarios.singleTimed },
    ],
    o,
    connections,
  );
  [rows.sBatch, rows.sBatchTimed] = await measureGroup(
    [
      { label: 's  batch of 100, no durationMs', port: servicePort, scenario: scenarios.batch },
      { label: 's  batch of 100 with durationMs', port: servicePort, scenario: scenarios.batchTimed },
    ],
    o,
    connections,
  );
  return rows;
}

export const STATS_TARGETS = [
  {
    id: 's-batch-cpu',
    what: 's: batch of 100 with durationMs ≤ 1.1× CPU/outcome without',
    ratio: (r) => r.sBatch && r.sBatchTimed && r.sBatchTimed.cpuMsPerRequest / r.sBatch.cpuMsPerRequest,
    ok: (x) => x <= 1.1,
    note: (r) =>
      r.sBatch &&
      r.sBatchTimed &&
      `${((r.sBatch.cpuMsPerRequest / 100) * 1000).toFixed(1)} → ${((r.sBatchTimed.cpuMsPerRequest / 100) * 1000).toFixed(1)} µs/outcome`,
  },
  {
    id: 's-single-cpu',
    what: 's: clean success with durationMs ≤ 1.05× CPU without',
    ratio: (r) => r.sSingle && r.sSingleTimed && r.sSingleTimed.cpuMsPerRequest / r.sSingle.cpuMsPerRequest,
    ok: (x) => x <= 1.05,
    note: (r) => r.sSingle && r.sSingleTimed && `${r.sSingle.cpuMsPerRequest} → ${r.sSingleTimed.cpuMsPerRequest} ms`,
  },
];

// ---------------------------------------------------------------------------------------------
// alone: memory and flush cost

function args(argv) {
  const o = { tools: 10_000, tenants: 20, flushTools: 2_000, flushTenants: 5, servers: ['mongo-java-server', 'mongo-java-server-h2'] };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--tools') o.tools = Number(v);
    else if (k === '--tenants') o.tenants = Number(v);
    else if (k === '--flush-tools') o.flushTools = Number(v);
    else if (k === '--flush-tenants') o.flushTenants = Number(v);
    else if (k === '--servers') o.servers = v.split(',');
    else throw new Error(`unknown option ${k}`);
  }
  return o;
}

function loadDist() {
  const require = createRequire(import.meta.url);
  const dist = (p) => path.join(ROOT, 'dist', p);
  if (!fs.existsSync(dist('features/tool-stats/outcome-stats-recorder.service.js')))
    throw new Error('dist/ is missing: run `npx nest build` first');
  return {
    OutcomeStatsRecorder: require(dist('features/tool-stats/outcome-stats-recorder.service.js')).OutcomeStatsRecorder,
    MongoOutcomeStatsRepository: require(dist('persistence/outcome-stats/mongo-outcome-stats.repository.js')).MongoOutcomeStatsRepository,
  };
}

const config = (tools, tenantKeys) => ({
  statsFlushMs: 10_000,
  statsMaxTools: tools,
  statsMaxTenantKeys: tenantKeys,
  statsMetricsTools: [],
});

/** A minute of counts: every (tool, tenant) key gets `perKey` reports, a failure among them, durations over a few buckets. */
function fill(recorder, tools, tenants, nowMs, perKey = 5) {
  let calls = 0;
  for (let t = 0; t < tools; t++) {
    const tool = `tool_${t}`;
    for (let n = 0; n < tenants; n++) {
      const tenant = `tenant_${n}`;
      for (let k = 0; k < perKey; k++) {
        recorder.record(tool, tenant, k !== 0, k === 0 ? 'BACKEND_FAILED' : undefined, durationOf(t * 31 + n * 7 + k), nowMs);
        calls++;
      }
    }
  }
  return calls;
}

function heapAfterGc() {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function cpuMsOf(pid) {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / ticks;
  } catch {
    return null;
  }
}

async function measureMemory({ OutcomeStatsRecorder }, o) {
  const keys = o.tools * (o.tenants + 1);
  const recorder = new OutcomeStatsRecorder({ increment: async () => 0 }, config(o.tools * 2, o.tools * o.tenants * 2));
  const before = heapAfterGc();
  const cpu0 = process.cpuUsage();
  const calls = fill(recorder, o.tools, o.tenants, Date.parse('2026-05-23T14:00:00Z'));
  const cpu = process.cpuUsage(cpu0);
  const after = heapAfterGc();
  const held = recorder.keysInMemory();
  // The bound at its defaults: how much the largest allowed minute would hold, by the same per-key cost.
  const bytesPerKey = (after - before) / held;
  return {
    tools: o.tools,
    tenants: o.tenants,
    keys,
    keysHeld: held,
    calls,
    heapBytes: after - before,
    heapMiB: Math.round(((after - before) / 2 ** 20) * 10) / 10,
    bytesPerKey: Math.round(bytesPerKey),
    recordNsPerCall: Math.round(((cpu.user + cpu.system) * 1000) / calls),
    atDefaultBoundsMiB: Math.round(((20_000 + 250_000) * bytesPerKey) / 2 ** 20),
  };
}

async function measureFlush(dist, kind, o) {
  const { startDatabase } = await import(pathToFileURL(path.join(ROOT, 'scripts/db/servers.mjs')).href);
  const { MongoClient } = await import('mongodb');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tas-stats-${kind}-`));
  const db = await startDatabase(kind, { dataDir });
  const client = new MongoClient(db.uri, { directConnection: true });
  try {
    await client.connect();
    const collection = client.db('tas_bench_stats').collection('outcome_stats');
    await collection.createIndex({ res: 1, tenantId: 1, start: 1 });
    await collection.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    const repository = new dist.MongoOutcomeStatsRepository({ collection });
    const recorder = new dist.OutcomeStatsRecorder(repository, config(o.flushTools * 2, o.flushTools * o.flushTenants * 2));
    const runs = [];
    for (const phase of ['insert', 'update']) {
      fill(recorder, o.flushTools, o.flushTenants, Date.parse('2026-05-23T14:00:00Z'));
      const docs0 = recorder.totals.documentsWritten;
      const [cpu0, db0, t0] = [process.cpuUsage(), cpuMsOf(db.pid), performance.now()];
      await recorder.flush();
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const dbMs = cpuMsOf(db.pid) - db0;
      const documents = recorder.totals.documentsWritten - docs0;
      if (recorder.totals.flushFailures > 0) throw new Error(`flush failed on ${kind}`);
      runs.push({
        phase,
        documents,
        wallMs: Math.round(wallMs),
        documentsPerSecond: Math.round((documents / wallMs) * 1000),
        serviceCpuUsPerDocument: Math.round(((cpu.user + cpu.system) / documents) * 10) / 10,
        dbCpuUsPerDocument: Math.round(((dbMs * 1000) / documents) * 10) / 10,
      });
      process.stderr.write(`  ${kind} ${phase}: ${JSON.stringify(runs[runs.length - 1])}\n`);
    }
    return { server: kind, tools: o.flushTools, tenants: o.flushTenants, runs };
  } finally {
    await client.close();
    await db.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const o = args(process.argv.slice(2));
  const dist = loadDist();
  const report = {
    startedAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
    options: o,
  };
  report.memory = await measureMemory(dist, o);
  process.stderr.write(`memory: ${JSON.stringify(report.memory)}\n`);
  report.flush = [];
  for (const kind of o.servers) report.flush.push(await measureFlush(dist, kind, o));
  const out = path.join(ROOT, 'bench', 'results', `stats-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  process.stderr.write(`results: ${path.relative(process.cwd(), out)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(`stats bench failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
