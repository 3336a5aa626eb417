// The naive ceiling for scenario a: bare node:http + the mongodb driver doing the same read as a
// clean success report — parse the JSON body, build the cascade's encoded `_id`s, one
// `{_id: {$in: …}}` find, answer the narrowest non-OK status. No framework, no validation, no
// auth beyond one string comparison, no domain rules. Started by bench/run.mjs as a child:
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

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/outcomes/success') return reply(res, 404, { error: 'NOT_FOUND' });
  if (req.headers['x-api-key'] !== key) return reply(res, 401, { error: 'UNAUTHENTICATED' });
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const { toolName, context = {} } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const ids = [];
      for (const [scope, field] of SCOPES) {
        if (field === null) ids.push(encode(scope, null, toolName));
        else if (typeof context[field] === 'string') ids.push(encode(scope, context[field], toolName));
      }
      const docs = await collection.find({ _id: { $in: ids } }).toArray();
      const byId = new Map(docs.map((d) => [d._id, d]));
      let status = 'OK';
      for (const id of ids) {
        const doc = byId.get(id);
        if (doc && doc.status !== 'OK') {
          status = doc.status;
          break;
        }
      }
      reply(res, 200, { status, changed: [] });
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
