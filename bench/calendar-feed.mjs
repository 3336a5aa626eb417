// `node bench/calendar-feed.mjs [--series 150] [--requests 60]` (also `npm run bench -- --only i`):
// what one `.ics` request costs the service when many recurring series are stored, and whether
// feed requests hold other requests up. Starts mongo-java-server's memory backend and the built
// service (dist/, `npm run build` first), schedules N daily series over REST, then measures
//   - the service's CPU per feed request (its process's user+system time over sequential requests:
//     on one event loop, that is the loop time a request takes),
//   - /health/ready's latency while 4 clients read the feed in a loop.
// Prints one JSON object; everything it starts, it stops.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startDatabase } from '../scripts/db/servers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SERIES = arg('--series', 150);
const REQUESTS = arg('--requests', 60);
const ADMIN = 'calendar-bench-admin-key';
const AUDIT = 'calendar-bench-audit-key';
const sha = (s) => createHash('sha256').update(s).digest('hex');

/** utime + stime of a process, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function call(port, method, pathname, key, body) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started };
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export async function calendarFeedBench({ series = SERIES, requests = REQUESTS, log = console.error } = {}) {
  const db = await startDatabase('mongo-java-server');
  const port = await freePort();
  const service = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      MONGODB_URI: db.uri,
      API_KEYS: `bench-admin:admin:${sha(ADMIN)},bench-audit:audit-reader:${sha(AUDIT)}`,
    },
  });
  try {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error('the service did not become ready');
      const ready = await call(port, 'GET', '/health/ready', AUDIT).catch(() => null);
      if (ready?.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Daily series starting at the next full hour, one per tool, 30 minutes each.
    const first = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000);
    for (let i = 0; i < series; i++) {
      const from = new Date(first.getTime() + (i % 20) * 60_000);
      const res = await call(port, 'POST', '/v1/maintenance-windows', ADMIN, {
        scope: 'GLOBAL',
        scopeId: null,
        toolName: `calendar_tool_${i}`,
        from: from.toISOString(),
        until: new Date(from.getTime() + 30 * 60_000).toISOString(),
        reason: 'nightly backup',
        rrule: 'FREQ=DAILY',
        timeZone: 'UTC',
      });
      if (res.status !== 201) throw new Error(`scheduling a series → ${res.status} ${res.text.slice(0, 200)}`);
    }
    const warm = await call(port, 'GET', '/v1/maintenance-windows.ics', AUDIT);
    const events = (warm.text.match(/BEGIN:VEVENT/g) ?? []).length;
    if (warm.status !== 200 || events === 0) throw new Error(`feed → ${warm.status}`);

    const before = cpuMs(service.pid);
    const latencies = [];
    for (let i = 0; i < requests; i++) latencies.push((await call(port, 'GET', '/v1/maintenance-windows.ics', AUDIT)).ms);
    const cpuPerRequest = (cpuMs(service.pid) - before) / requests;

    // Readiness while 4 clients read the feed back to back.
    let stop = false;
    const readers = [...Array(4)].map(async () => {
      while (!stop) await call(port, 'GET', '/v1/maintenance-windows.ics', AUDIT);
    });
    const ready = [];
    for (let i = 0; i < 40; i++) {
      ready.push((await call(port, 'GET', '/health/ready', AUDIT)).ms);
      await new Promise((r) => setTimeout(r, 25));
    }
    stop = true;
    await Promise.all(readers);
    const result = {
      series,
      eventsSent: events,
      feedBytes: Buffer.byteLength(warm.text),
      serviceCpuMsPerFeedRequest: Math.round(cpuPerRequest * 100) / 100,
      feedLatencyMs: { p50: Math.round(pct(latencies, 50) * 10) / 10, p99: Math.round(pct(latencies, 99) * 10) / 10 },
      readyLatencyWith4FeedReadersMs: { p50: Math.round(pct(ready, 50) * 10) / 10, max: Math.round(Math.max(...ready) * 10) / 10 },
    };
    log(
      `  i  .ics with ${series} daily series (${events} events): service CPU ${result.serviceCpuMsPerFeedRequest} ms/request (target ≤ 20), ` +
        `/health/ready with 4 feed readers p50 ${result.readyLatencyWith4FeedReadersMs.p50} ms, max ${result.readyLatencyWith4FeedReadersMs.max} ms (target ≤ 50)`,
    );
    return result;
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    await db.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  calendarFeedBench()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
