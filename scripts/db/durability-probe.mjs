// Measures the embedded H2 server's durability window (issue 10, item 1; P30): writers insert
// documents one after another, the server is SIGKILLed at a random moment, restarted on the same
// file, and every acknowledged write is looked up. Prints, per round and in all, how many
// acknowledged writes were lost and how long before the kill the newest lost one was acknowledged.
//
//   node scripts/db/durability-probe.mjs [--rounds N] [--writers N] [--commit-interval-ms N]
//                                        [--interval-only]
//
// Default: the embedded default (commit per write plus the interval backstop, P30);
// --interval-only: the MVStore is committed only every --commit-interval-ms (default 50).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { startDatabase } from './servers.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const rounds = option('--rounds', 5);
const writers = option('--writers', 4);
const commitIntervalMs = option('--commit-interval-ms', undefined);
const commitPerWrite = !flag('--interval-only');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const clientOptions = { directConnection: true, serverSelectionTimeoutMS: 2_000, maxPoolSize: writers + 1 };
const totals = { acked: 0, lost: 0, lostLast200: 0, worstAgeMs: null, latencies: [] };

for (let round = 1; round <= rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'tas-durability-'));
  try {
    const db = await startDatabase('mongo-java-server-h2', { dataDir: dir, commitIntervalMs, commitPerWrite });
    const client = await MongoClient.connect(db.uri, clientOptions);
    const collection = client.db('durability').collection('writes');
    await collection.insertOne({ _id: 'warm-up' });
    const acked = new Map(); // _id -> time of acknowledgement
    let killed = false;
    const writer = async (w) => {
      for (let i = 0; !killed; i++) {
        const id = `${w}-${i}`;
        const started = performance.now();
        try {
          await collection.insertOne({ _id: id, payload: 'x'.repeat(200) });
          const now = performance.now();
          if (!killed) {
            acked.set(id, now);
            totals.latencies.push(now - started);
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const running = Array.from({ length: writers }, (_, w) => writer(w));
    await sleep(300 + Math.random() * 700);
    killed = true;
    const killAt = performance.now();
    await db.kill('SIGKILL');
    await Promise.all(running);
    await client.close(true);

    const again = await startDatabase('mongo-java-server-h2', { dataDir: dir, commitIntervalMs, commitPerWrite });
    const reader = await MongoClient.connect(again.uri, clientOptions);
    const present = new Set(
      (
        await reader
          .db('durability')
          .collection('writes')
          .find({}, { projection: { _id: 1 } })
          .toArray()
      ).map((d) => d._id),
    );
    await reader.close();
    await again.stop();

    let lost = 0;
    let lostLast200 = 0;
    let worstAgeMs = null;
    for (const [id, at] of acked) {
      if (present.has(id)) continue;
      lost++;
      const age = killAt - at;
      if (age <= 200) lostLast200++;
      worstAgeMs = Math.max(worstAgeMs ?? 0, age);
    }
    totals.acked += acked.size;
    totals.lost += lost;
    totals.lostLast200 += lostLast200;
    if (worstAgeMs !== null) totals.worstAgeMs = Math.max(totals.worstAgeMs ?? 0, worstAgeMs);
    console.log(
      `round ${round}: ${acked.size} acknowledged, ${lost} lost (${lostLast200} in the last 200 ms)` +
        (worstAgeMs === null ? '' : `, oldest lost write acknowledged ${worstAgeMs.toFixed(1)} ms before the kill`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sorted = totals.latencies.sort((a, b) => a - b);
const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2) : '-');
console.log(
  `mode ${commitPerWrite ? 'commit per write' : `commit every ${commitIntervalMs ?? 50} ms`}, ${writers} writers: ` +
    `${totals.acked} acknowledged, ${totals.lost} lost (${totals.lostLast200} in the last 200 ms)` +
    (totals.worstAgeMs === null ? '' : `, window ${totals.worstAgeMs.toFixed(1)} ms`) +
    `; insert latency p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`,
);
