// What keeps the embedded H2 server busy after a million inserts (issue 27): the JVM's CPU by
// thread, idle and under the service's lookup read, on a fresh database and after growing it.
//
//   node bench/h2-threads.mjs [--large 1000000] [--lookups 20000] [--settings cacheSize:64,...]
//
// Starts mongo-java-server's H2 backend as `npm start` does (commit per write), seeds the bench's
// base set (bench/seed.mjs), and in each phase measures (1) every JVM thread's CPU over 10 s with
// no client, (2) the JVM's CPU per lookup — the cascade read the service sends for a call, one
// `find` of five `_id`s with `$in`, 8 in flight — and the threads that spent it. Then grows the
// collection to --large filler documents and measures again, at once and after a pause.
// Prints one JSON report; bench/results/ keeps the runs quoted in docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { startDatabase } from '../scripts/db/servers.mjs';
import { BASE, contextIds, growTo, loadEncodeKey, manifestTool, seedBase } from './seed.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const LARGE = Number(option('--large', '1000000'));
const LOOKUPS = Number(option('--lookups', '20000'));
const SETTINGS = option('--settings', undefined);
const TICK = 100; // USER_HZ on Linux

/** CPU ms of every thread of `pid`, by thread name with numbers folded (`GC Thread#3` → `GC Thread#n`). */
function threadCpu(pid) {
  const out = new Map();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, 'n');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK;
      out.set(name, (out.get(name) ?? 0) + ms);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

function delta(before, after) {
  const rows = [];
  let total = 0;
  for (const [name, ms] of after) {
    const d = ms - (before.get(name) ?? 0);
    total += d;
    if (d > 0) rows.push([name, Math.round(d)]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  return { totalMs: Math.round(total), byThread: Object.fromEntries(rows.slice(0, 8)) };
}

async function idle(pid, seconds) {
  const before = threadCpu(pid);
  await sleep(seconds * 1000);
  return { seconds, ...delta(before, threadCpu(pid)) };
}

async function lookups(pid, collection, encodeKey) {
  const before = threadCpu(pid);
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < LOOKUPS; i = next++) {
      const c = contextIds(i);
      const toolName = manifestTool(i % BASE.manifestTools);
      const ids = [
        ['SESSION', c.sessionId],
        ['USER', c.userId],
        ['PROJECT', c.projectId],
        ['TENANT', c.tenantId],
        ['GLOBAL', null],
      ].map(([scope, scopeId]) => encodeKey({ scope, scopeId, toolName }));
      await collection.find({ _id: { $in: ids } }, { batchSize: 6 }).toArray();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const spent = delta(before, threadCpu(pid));
  return { lookups: LOOKUPS, seconds: (Date.now() - started) / 1000, dbCpuMsPerLookup: +(spent.totalMs / LOOKUPS).toFixed(3), ...spent };
}

async function main() {
  const encodeKey = loadEncodeKey();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-h2-threads-'));
  process.env.JAVA_TOOL_OPTIONS ??= '-Xmx8g'; // as bench/run.mjs
  const db = await startDatabase('mongo-java-server-h2', { dataDir, h2Settings: SETTINGS });
  const client = new MongoClient(db.uri, { directConnection: true });
  const report = { settings: SETTINGS ?? '(library defaults)', large: LARGE, phases: {} };
  try {
    await client.connect();
    const collection = client.db('tas_bench').collection('tool_health');
    const now = new Date();
    await seedBase(collection, now, encodeKey);
    await lookups(db.pid, collection, encodeKey); // JIT warm-up, untimed
    report.phases.fresh = { idle: await idle(db.pid, 10), lookups: await lookups(db.pid, collection, encodeKey) };
    const t = Date.now();
    await growTo(collection, LARGE, now, { encodeKey });
    report.insertSeconds = (Date.now() - t) / 1000;
    report.fileMiB = Math.round(fs.readdirSync(dataDir).reduce((n, f) => n + fs.statSync(path.join(dataDir, f)).size, 0) / 2 ** 20);
    report.phases.grown = { idle: await idle(db.pid, 10), lookups: await lookups(db.pid, collection, encodeKey) };
    await sleep(30_000);
    report.phases.grownAfter30s = { idle: await idle(db.pid, 10), lookups: await lookups(db.pid, collection, encodeKey) };
  } finally {
    await client.close();
    await db.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`h2-threads failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
