// p: where a request's service CPU goes, measured by profiling the running service (issue 38).
// The service under the bench is started with its inspector on a random local port; for each
// scenario this connects to it, starts V8's sampling CPU profiler, drives the scenario with the
// bench's own load generator, stops the profiler and attributes every sample to one stage by
// its call frames. The stage shares are scaled to the process's own CPU time per request from
// /proc (the profiler sees only the JavaScript thread; the share it cannot place is shown).
import WebSocket from 'ws';

/** The stages of a request, in the order it meets them; `rules` are matched innermost frame first. */
export const STAGES = [
  ['routing', 'routing and hooks (fastify, Nest, guards, interceptors, logging)'],
  ['key', 'API key'],
  ['parse', 'body parsing and validation'],
  ['reads', 'reads (driver, BSON, stores)'],
  ['evaluation', 'evaluation (domain rules, feature services)'],
  ['serialise', 'answer serialisation'],
  ['transport', 'HTTP transport (node:http, sockets)'],
  ['gc', 'garbage collection'],
  ['other', 'other (V8, native, timers)'],
];

const has = (url, ...parts) => parts.some((p) => url.includes(p));

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
  if (has(url, 'fast-json-stringify', '/fastify/lib/reply.js', '/fastify/lib/error-serializer', '/dist/src/shapes/view-json-schema', '/dist/src/openapi/'))
    return 'serialise';
  if (has(url, '/dist/src/auth/')) return 'key';
  if (
    has(
      url,
      '/class-validator/',
      '/class-transformer/',
      '/ajv/',
      '/secure-json-parse/',
      '/fastify/lib/contentTypeParser',
      '/@nestjs/common/pipes/',
      '/dist/src/errors/validation',
      '/dist/src/shapes/',
    )
  )
    return 'parse';
  if (has(url, '/mongodb/', '/mongoose/', '/bson/', '/dist/src/persistence/', '/dist/src/database/')) return 'reads';
  if (has(url, '/dist/src/domain/', '/dist/src/features/', '/dist/src/write-path/', '/dist/src/idempotency/')) return 'evaluation';
  if (has(url, '/node_modules/', '/dist/src/')) return 'routing';
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
  const fallback = ({ url }) => (has(url, 'node:_http', 'node:net', 'node:internal/stream', 'node:internal/http', 'node:stream') ? 'transport' : 'other');
  // A frame that says nothing by itself under a transport frame stays transport.
  const ms = Object.fromEntries([...STAGES.map(([k]) => [k, 0]), ['idle', 0]]);
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    ms[stageOfNode(samples[i])] += dt;
  }
  return ms;
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
export async function profileStages({ url, scenarios, drive, cpuMs, intervalUs = 200 }) {
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
      const ms = attribute(profile);
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
      };
    }
    await s.send('Profiler.disable');
  } finally {
    s.close();
  }
  return rows;
}

/** The stage table, one line a scenario, milliseconds per request. */
export function printStages(server, rows, per = {}) {
  const keys = STAGES.map(([k]) => k);
  const lines = [`  ${'stage breakdown, ms of service CPU per request'.padEnd(44)} ${keys.map((k) => k.slice(0, 9).padStart(9)).join(' ')}  sampled    /proc`];
  for (const r of Object.values(rows)) {
    const d = per[r.label] ?? 1;
    const f = (x) => (x === null || x === undefined ? '-' : (x / d).toFixed(3)).padStart(9);
    lines.push(`  ${`${server} ${r.label}`.slice(0, 44).padEnd(44)} ${keys.map((k) => f(r.stagesMsPerRequest[k])).join(' ')} ${f(r.sampledMsPerRequest)} ${f(r.cpuMsPerRequest)}`);
  }
  return lines.join('\n');
}
