// `node bench/calendar-feed.mjs [--series 150] [--requests 60]` (also `npm run bench -- --only i`):
// what one `.ics` request costs the service when many recurring series are stored, and whether
// feed requests hold other requests up. Starts mongo-java-server's memory backend and the built
// service (dist/, `npm run build` first), schedules N daily series over REST, then measures
//   - the service's CPU per feed request (its process's user+system time over sequential requests:
//     on one event loop, that is the loop time a request takes),
//   - /health/ready's latency while 4 clients read the feed in a loop.
// Prints one JSON object; everything it starts, it stops.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_KEYS, call, startOwnService } from './own-service.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SERIES = arg('--series', 150);
const REQUESTS = arg('--requests', 60);
const ADMIN = BENCH_KEYS.admin;
const AUDIT = BENCH_KEYS.audit;

/** utime + stime of a process, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export async function calendarFeedBench({ series = SERIES, requests = REQUESTS, log = console.error } = {}) {
  const { port, pid, stop } = await startOwnService();
  try {
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

    const before = cpuMs(pid);
    const latencies = [];
    for (let i = 0; i < requests; i++) latencies.push((await call(port, 'GET', '/v1/maintenance-windows.ics', AUDIT)).ms);
    const cpuPerRequest = (cpuMs(pid) - before) / requests;

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
    await stop();
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
