// The naive ceilings for scenarios a and c, and the floor of b: bare node:http + the mongodb driver.
// a (POST /v1/outcomes/success): the same read as a clean success report — parse the JSON body,
// build the cascade's encoded `_id`s, one `{_id: {$in: …}}` find, answer the narrowest non-OK
// status.
// b (POST /v1/outcomes/failure): the same read as a failure report; the narrowest document with
// an active cooldown for the signature (scope-wide, or the caller's own) answers IN_COOLDOWN.
// No hit is counted: this is b2's floor, the tail of this machine for these reads and answers
// at this load, measured in the same slices. (A naive count, one unordered bulk of `$inc`s
// every 250 ms, read 4.9× against 2.3× without: mongo-java-server holds the lookups behind a
// large bulk, P113.)
// c (POST /v1/manifest/annotate): the same one batched read for the same manifest — every
// visible tool's cascade `_id`s in one `$in` — and the same annotated list (narrowest problem,
// the §9 suffix in the description, the do-not-call hint) built with plain code.
// No framework, no validation, no auth beyond one string comparison, no pins, no RETESTING.
// The c-floor (POST /floor/annotate, P116): what any server on this machine pays for a manifest
// answer before it does any work — parse the request's JSON, serialise the service's own answer
// for that many tools (handed over once through POST /floor/answers) and write it — with no
// database read and no logic. Started by bench/run.mjs as a child:
//   MONGODB_URI=mongodb://127.0.0.1:PORT/tas_bench PORT=0 BENCH_KEY=… node bench/baseline-server.mjs
// Prints `LISTENING <port>` once it accepts connections.
import http from 'node:http';
import { MongoClient } from 'mongodb';

const SCOPES = [
  ['SESSION', 'sessionId'],
  ['USER', 'userId'],
  ['PROJECT', 'projectId'],
  ['TENANT', 'tenantId'],
  ['GLOBAL', null],
];
const esc = (s) => s.replace(/%/g, '%25').replace(/\|/g, '%7C');
const encode = (scope, scopeId, toolName) => `${scope}|${scopeId === null ? '%00' : esc(scopeId)}|${esc(toolName)}`;

const client = new MongoClient(process.env.MONGODB_URI, { directConnection: true });
await client.connect();
const collection = client.db().collection('tool_health');
const key = process.env.BENCH_KEY ?? '';

function reply(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const clock = new Map();
/** HH:MM in the zone (a formatter per zone, like the service's). */
function hhmm(date, timeZone) {
  let f = clock.get(timeZone);
  if (!f) clock.set(timeZone, (f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  return f.format(date);
}

async function annotate({ tools, context = {}, timeZone = 'UTC' }) {
  const ids = [];
  for (const tool of tools) {
    for (const [scope, field] of SCOPES) {
      if (field === null) ids.push(encode(scope, null, tool.name));
      else if (typeof context[field] === 'string') ids.push(encode(scope, context[field], tool.name));
    }
  }
  const docs = await collection.find({ _id: { $in: ids } }, { batchSize: ids.length + 1 }).toArray();
  const byId = new Map(docs.map((d) => [d._id, d]));
  const now = Date.now();
  const out = tools.map((tool) => {
    let winner = null;
    for (const [scope, field] of SCOPES) {
      const scopeId = field === null ? null : context[field];
      if (scopeId === undefined) continue;
      const doc = byId.get(encode(scope, scopeId, tool.name));
      if (doc && doc.status !== 'OK') {
        winner = doc;
        break;
      }
    }
    let suffix = null;
    if (winner?.status === 'DEGRADED') {
      const minutes = Math.max(1, Math.floor((now - (winner.lastFailureAt ?? winner.since).getTime()) / 60_000));
      suffix = `intermittent — last failure ${minutes} min ago, retry tolerated`;
    } else if (winner?.status === 'DOWN') {
      suffix = winner.expectedRecoveryAt
        ? `currently unavailable — expected back at ${hhmm(winner.expectedRecoveryAt, timeZone)}`
        : `unavailable since ${hhmm(winner.since, timeZone)}`;
    }
    const doNotCall = winner?.status === 'DOWN';
    return {
      name: tool.name,
      description: suffix ? `${tool.description} (${suffix})` : tool.description,
      suffix,
      status: winner?.status ?? 'OK',
      doNotCall,
      hint: doNotCall ? 'do not call, plan without it' : null,
      reason: winner ? { scope: winner.scope, scopeId: winner.scopeId, since: winner.since } : null,
    };
  });
  return { tools: out, departed: [], filtered: { count: 0, tools: [] } };
}

/** The cascade's `_id`s of one call, narrowest first, and its stored documents by `_id`. */
async function readCascade(toolName, context) {
  const ids = [];
  for (const [scope, field] of SCOPES) {
    if (field === null) ids.push(encode(scope, null, toolName));
    else if (typeof context[field] === 'string') ids.push(encode(scope, context[field], toolName));
  }
  const docs = await collection.find({ _id: { $in: ids } }).toArray();
  return { ids, byId: new Map(docs.map((d) => [d._id, d])) };
}

async function success({ toolName, context = {} }) {
  const { ids, byId } = await readCascade(toolName, context);
  let status = 'OK';
  for (const id of ids) {
    const doc = byId.get(id);
    if (doc && doc.status !== 'OK') {
      status = doc.status;
      break;
    }
  }
  return { status, changed: [] };
}

async function failure({ toolName, context = {}, errorSignature }) {
  const { ids, byId } = await readCascade(toolName, context);
  const now = Date.now();
  for (const id of ids) {
    const doc = byId.get(id);
    const entry = doc?.cooldowns?.find(
      (c) =>
        c.errorSignature === errorSignature && (c.userId === null || c.userId === context.userId) && c.nextSpawnAllowedAt.getTime() > now,
    );
    if (!entry) continue;
    const { scope, scopeId, status } = doc;
    return {
      status,
      shouldDiagnose: false,
      reason: 'IN_COOLDOWN',
      cooldown: { scope, scopeId, errorSignature, nextSpawnAllowedAt: entry.nextSpawnAllowedAt },
    };
  }
  return { status: 'OK', shouldDiagnose: true, reason: null, cooldown: null };
}

/** The service's answers by tool count, for the c-floor. */
const floorAnswers = new Map();

function storeFloorAnswers(answers) {
  for (const [key, answer] of Object.entries(answers)) floorAnswers.set(key, answer);
  return { stored: floorAnswers.size };
}

function floorAnswer(key) {
  const answer = floorAnswers.get(key);
  if (!answer) throw new Error(`no floor answer for ${key}: POST /floor/answers first`);
  return answer;
}

const floorAnnotate = ({ tools }) => floorAnswer(String(tools.length));
/** The c-changes floor (D23): the same for the answer by difference. */
const floorAnnotateChanges = ({ tools }) => floorAnswer(`changes:${tools.length}`);

const ROUTES = {
  '/v1/outcomes/success': success,
  '/v1/outcomes/failure': failure,
  '/v1/manifest/annotate': annotate,
  '/floor/answers': storeFloorAnswers,
  '/floor/annotate': floorAnnotate,
  '/floor/annotate-changes': floorAnnotateChanges,
};

const server = http.createServer((req, res) => {
  const route = req.method === 'POST' ? ROUTES[req.url] : undefined;
  if (!route) return reply(res, 404, { error: 'NOT_FOUND' });
  if (req.headers['x-api-key'] !== key) return reply(res, 401, { error: 'UNAUTHENTICATED' });
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      reply(res, 200, await route(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    } catch (error) {
      reply(res, 400, { error: String(error.message) });
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${server.address().port}\n`);
});
const stop = () => server.close(() => client.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
