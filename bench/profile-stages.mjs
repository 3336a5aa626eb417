// p: where a request's service CPU goes, measured by profiling the running service (issue 38).
// The service under the bench is started with its inspector on a random local port; for each
// scenario this connects to it, starts V8's sampling CPU profiler, drives the scenario with the
// bench's own load generator, stops the profiler and attributes every sample to one stage by
// its call frames. The stage shares are scaled to the process's own CPU time per request from
// /proc (the profiler sees only the JavaScript thread; the share it cannot place is shown).
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';

/** The stages of a request, in the order it meets them; `rules` are matched innermost frame first. */
export const STAGES = [
  ['routing', 'routing and hooks (fastify, Nest, guards, interceptors, logging)'],
  ['key', 'API key'],
  ['parse', 'body parsing and validation'],
  ['reads', 'database driver: reads, and the writes of a write route (driver, BSON, stores)'],
  ['evaluation', 'evaluation (domain rules, feature services)'],
  ['serialise', 'answer serialisation'],
  ['transport', 'HTTP transport (node:http, sockets)'],
  ['gc', 'garbage collection'],
  ['other', 'other (V8, native, timers)'],
];

const has = (url, ...parts) => parts.some((p) => url.includes(p));
/** The service's own compiled code (dist/<folder>/…), never a library's dist folder. */
const own = (url, ...dirs) => !url.includes('/node_modules/') && dirs.some((d) => url.includes(`/dist/${d}/`));

/**
 * The stage of one frame, or null when the frame says nothing by itself (a V8 builtin, a node
 * internal): then the caller's frame decides. Files under dist/ are the service's own code.
 */
function stageOfFrame({ functionName, url }) {
  if (url === '') {
    // V8 builtins carry no file: JSON.parse is body parsing, JSON.stringify the answer.
    if (functionName === 'parse') return 'parse';
    if (functionName === 'stringify') return 'serialise';
    return null;
  }
  if (url.endsWith('/fastify/lib/reply.js')) {
    // The reply's serialiser is the answer's bytes; handing them to the socket is transport.
    if (functionName === 'serialize' || functionName === 'preSerializationHook') return 'serialise';
    if (functionName === 'writePayload' || functionName === 'onSendEnd') return 'transport';
    return 'routing';
  }
  if (
    has(
      url,
      'fast-json-stringify',
      '/fastify/lib/error-serializer',
      '/dist/shapes/view-json-schema',
      '/dist/shapes/answer-json',
      '/dist/shapes/carried-array-text',
      '/dist/shapes/answer-bytes',
      '/dist/shapes/answer-written-by',
      '/dist/shapes/instant-json',
    ) ||
    own(url, 'openapi')
  )
    return 'serialise';
  if (has(url, 'node:_http_outgoing', 'node:_http_server', 'node:_http_common')) return 'transport';
  if (own(url, 'auth') || has(url, '/dist/config/api-keys')) return 'key';
  if (
    has(
      url,
      '/class-validator/',
      '/class-transformer/',
      '/ajv/',
      '/secure-json-parse/',
      '/fastify/lib/content-type-parser',
      '/fastify/lib/validation',
      '/dist/errors/json-body',
      '/@nestjs/common/pipes/',
      '/dist/errors/validation',
    ) ||
    own(url, 'shapes')
  )
    return 'parse';
  if (has(url, '/mongodb/', '/mongoose/', '/bson/') || own(url, 'persistence', 'database')) return 'reads';
  if (own(url, 'domain', 'features', 'write-path', 'idempotency')) return 'evaluation';
  if (has(url, '/node_modules/', '/dist/')) return 'routing';
  if (has(url, 'node:internal/', 'node:_http', 'node:net', 'node:stream', 'node:events', 'node:timers')) return null;
  return null;
}

/** Samples → milliseconds per stage, with each sample's weight its time to the next sample. */
export function attribute(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map();
  const stageOfNode = (id) => {
    if (memo.has(id)) return memo.get(id);
    const n = byId.get(id);
    const name = n.callFrame.functionName;
    let stage;
    if (name === '(idle)') stage = 'idle';
    else if (name === '(garbage collector)') stage = 'gc';
    else if (name === '(program)' || name === '(root)') stage = 'other';
    else {
      stage = stageOfFrame(n.callFrame);
      if (stage === null) {
        const p = parent.get(id);
        // Up to the root with nothing said: node's own HTTP and socket code, or a timer.
        stage = p === undefined || byId.get(p).callFrame.functionName === '(root)' ? fallback(n.callFrame) : stageOfNode(p);
      }
    }
    memo.set(id, stage);
    return stage;
  };
  const fallback = ({ url }) =>
    has(url, 'node:_http', 'node:net', 'node:internal/stream', 'node:internal/http', 'node:stream') ? 'transport' : 'other';
  // A frame that says nothing by itself under a transport frame stays transport.
  const ms = Object.fromEntries([...STAGES.map(([k]) => [k, 0]), ['idle', 0]]);
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    ms[stageOfNode(samples[i])] += dt;
  }
  return ms;
}

/** The functions with the most self time: what is left to cut, by name, file and stage. */
export function topFunctions(profile, n = 12) {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const f = byId.get(samples[i]).callFrame;
    if (f.functionName === '(idle)') continue;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (timeDeltas[i + 1] ?? 0) / 1000);
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** The inspector's WebSocket address, from the line node prints when the inspector opens. */
export function inspectorUrl(output) {
  const m = /Debugger listening on (ws:\/\/\S+)/.exec(output);
  return m ? m[1] : null;
}

function session(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
    let next = 1;
    const pending = new Map();
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        send: (method, params = {}) =>
          new Promise((res, rej) => {
            const id = next++;
            pending.set(id, { resolve: res, reject: rej });
            ws.send(JSON.stringify({ id, method, params }));
          }),
        close: () => ws.close(),
      }),
    );
  });
}

/**
 * Profiles each scenario in turn on the one service process. `drive(scenario)` runs the load
 * and answers { ok } (the answered requests); `cpuMs()` the process's CPU time so far.
 */
export async function profileStages({ url, scenarios, drive, cpuMs, intervalUs = 500 }) {
  const s = await session(url);
  const rows = {};
  try {
    await s.send('Profiler.enable');
    await s.send('Profiler.setSamplingInterval', { interval: intervalUs });
    for (const sc of scenarios) {
      await s.send('Profiler.start');
      const before = cpuMs();
      const { ok } = await drive(sc);
      const after = cpuMs();
      const { profile } = await s.send('Profiler.stop');
      // BENCH_PROFILE_DIR=dir keeps each raw profile (.cpuprofile: Chrome DevTools opens it).
      if (process.env.BENCH_PROFILE_DIR) {
        fs.mkdirSync(process.env.BENCH_PROFILE_DIR, { recursive: true });
        fs.writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, `${sc.id}.cpuprofile`), JSON.stringify(profile));
      }
      const ms = attribute(profile);
      const top = topFunctions(profile);
      const sampled = STAGES.reduce((sum, [k]) => sum + ms[k], 0);
      const cpu = before !== null && after !== null ? (after - before) / ok : null;
      const stages = {};
      for (const [k] of STAGES) stages[k] = ok ? Math.round((ms[k] / ok) * 1e4) / 1e4 : null;
      rows[sc.id] = {
        label: sc.label,
        requests: ok,
        cpuMsPerRequest: cpu === null ? null : Math.round(cpu * 1e4) / 1e4,
        // What the profiler saw on the JavaScript thread per request; the rest of the process's
        // CPU (libuv and V8's helper threads, the profiler itself) is the remainder.
        sampledMsPerRequest: ok ? Math.round((sampled / ok) * 1e4) / 1e4 : null,
        stagesMsPerRequest: stages,
        idleMs: Math.round(ms.idle),
        topSelfMsPerRequest: top.map(([f, t]) => [f, ok ? Math.round((t / ok) * 1e4) / 1e4 : null]),
      };
    }
    await s.send('Profiler.disable');
  } finally {
    s.close();
  }
  return rows;
}

/** The stage table, one line a scenario, milliseconds per request. */
/**
 * Each stage's share of the sampled time, times the scenario's service CPU per request measured
 * without the profiler (its row in the table; the profiler's own cost is left out that way).
 */
export function scaleStages(row, unprofiledCpuMs) {
  const total = row.sampledMsPerRequest;
  const base = unprofiledCpuMs ?? row.cpuMsPerRequest;
  row.unprofiledCpuMsPerRequest = base;
  row.stagesShare = {};
  row.stagesMs = {};
  for (const [k] of STAGES) {
    const share = total ? row.stagesMsPerRequest[k] / total : null;
    row.stagesShare[k] = share === null ? null : Math.round(share * 1000) / 1000;
    row.stagesMs[k] = share === null || base === null ? null : Math.round(share * base * 1e4) / 1e4;
  }
  return row;
}

/** The stage table, one line a scenario: milliseconds of service CPU per request by stage. */
export function printStages(server, rows) {
  const keys = STAGES.map(([k]) => k);
  const lines = [
    `  ${'stages: service CPU ms per request'.padEnd(44)} ${keys.map((k) => k.slice(0, 9).padStart(9)).join(' ')}     total  profiled`,
  ];
  for (const r of Object.values(rows)) {
    const f = (x) => (x === null || x === undefined ? '-' : x.toFixed(3)).padStart(9);
    const ms = r.stagesMs ?? r.stagesMsPerRequest;
    lines.push(
      `  ${`${server} ${r.label}`.slice(0, 44).padEnd(44)} ${keys.map((k) => f(ms[k])).join(' ')} ${f(r.unprofiledCpuMsPerRequest ?? r.sampledMsPerRequest)} ${f(r.cpuMsPerRequest)}`,
    );
  }
  lines.push(
    "  (each stage: its share of the profile × the row's service CPU without the profiler; profiled: /proc CPU per request while sampling)",
  );
  return lines.join('\n');
}
