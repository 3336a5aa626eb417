// Seeds the benchmark's documents straight into the driver collection (no service, no mongoose):
// insertMany in unordered batches, a few batches in flight. Deterministic names, so the runner
// can build requests that hit exactly these documents.
//
// Library (used by bench/run.mjs):
//   import { seedBase, growTo, BASE } from './seed.mjs';
//   await seedBase(collection, now);           // the documents scenarios a–d read (1 000 in all)
//   await growTo(collection, 1_000_000, now);  // filler SESSION documents up to that count
//
// CLI (e.g. to try a size by hand against a running server):
//   node bench/seed.mjs --uri mongodb://127.0.0.1:PORT/tas_bench --count 1000000
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fs from 'node:fs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The service's own key encoding (D3a, P1), from the build: seeded ids are the ids it reads. */
export function loadEncodeKey() {
  const file = path.join(ROOT, 'dist', 'domain', 'health-key.js');
  if (!fs.existsSync(file)) throw new Error(`${path.relative(process.cwd(), file)} is missing: run \`npx nest build\` first`);
  return require(file).encodeKey;
}

/**
 * The service lists every document's name in its scope's presence list before inserting it
 * (P81); seeding straight into the collection must do the same, or the manifest read would not
 * see these documents.
 */
async function addPresence(collection, docs) {
  const prefixOf = require(path.join(ROOT, 'dist', 'domain', 'health-key.js')).scopePrefix;
  const byPrefix = new Map();
  for (const d of docs) {
    const prefix = prefixOf(d.scope, d.scopeId ?? null);
    if (!byPrefix.has(prefix)) byPrefix.set(prefix, new Set());
    byPrefix.get(prefix).add(d.toolName);
  }
  const ops = [...byPrefix].map(([prefix, tools]) => ({
    updateOne: { filter: { _id: prefix }, update: { $addToSet: { tools: { $each: [...tools] } } }, upsert: true },
  }));
  if (ops.length) await collection.db.collection('tool_health_presence').bulkWrite(ops, { ordered: false });
}

const DAY = 24 * 3600_000;

/** Names the runner's request generators share with the seed. */
export const BASE = Object.freeze({
  /** a: clean success reports. */
  successTools: 20,
  /** contexts: users, projects, tenants cycle with the request index; every request its own session. */
  users: 500,
  projects: 50,
  tenants: 10,
  /** b: distinct keys in cooldown: one USER document per user, tool fail_<user % failTools>. */
  failTools: 20,
  failSignature: 'http-500',
  /** b: the hot GLOBAL document in cooldown (an outage). */
  hotTool: 'hot_tool',
  hotSignature: 'http-503',
  /** c/d: manifest tools mf_0 … mf_199; d reads mf_* too. */
  manifestTools: 200,
  /** The base set is padded to exactly this many documents (the "1 thousand" of d). */
  total: 1000,
});

export const successTool = (i) => `succ_${i % BASE.successTools}`;
export const userOf = (i) => `u-${i % BASE.users}`;
export const projectOf = (i) => `p-${i % BASE.projects}`;
export const tenantOf = (i) => `t-${i % BASE.tenants}`;
export const failToolOfUser = (u) => `fail_${u % BASE.failTools}`;
export const manifestTool = (j) => `mf_${j}`;
/** The context of request i: every request its own session; users, projects and tenants cycle. */
export const contextIds = (i) => ({ sessionId: `s-${i}`, userId: userOf(i), projectId: projectOf(i), tenantId: tenantOf(i) });

/**
 * The service's own document builders, from the build: `newDocument` (the domain's defaults for
 * every field) and `toRecord` (the stored shape). The seed states only what it varies, so a field
 * added to the document reaches the seeded documents without an edit here.
 */
let builders = null;
function documentBuilders() {
  if (builders) return builders;
  const load = (...parts) => {
    const file = path.join(ROOT, 'dist', ...parts);
    if (!fs.existsSync(file)) throw new Error(`${path.relative(process.cwd(), file)} is missing: run \`npx nest build\` first`);
    return require(file);
  };
  builders = {
    newDocument: load('domain', 'health-entry.js').newDocument,
    toRecord: load('persistence', 'tool-health', 'tool-health.mapper.js').toRecord,
  };
  return builders;
}

/** One stored document: created a week ago, last written an hour ago, version 1; `fields` override the rest. */
function record(encodeKey, { scope, scopeId = null, toolName, tenantId = null, since, ...fields }, now) {
  const { newDocument, toRecord } = documentBuilders();
  const key = { scope, scopeId, toolName };
  const hourAgo = new Date(now.getTime() - 3600_000);
  const doc = newDocument(key, new Date(now.getTime() - 7 * DAY), tenantId);
  if (doc.id !== encodeKey(key)) throw new Error(`the build's newDocument and encodeKey disagree on ${doc.id}`);
  return toRecord({
    ...doc,
    since: since ?? hourAgo,
    lastCheckedAt: new Date(now.getTime() - 600_000),
    version: 1,
    updatedAt: hourAgo,
    ...fields,
  });
}

function cooldown(errorSignature, userId, classification, windowMs, now) {
  return {
    errorSignature,
    userId,
    nextSpawnAllowedAt: new Date(now.getTime() + 7 * DAY),
    hits: 0,
    lastClassification: classification,
    lastTriggeredAt: null,
    windowMs,
  };
}

function diagnosis(classification, code, now) {
  return { classification, code, note: 'seeded by bench/seed.mjs', by: 'agrajag-bench', at: new Date(now.getTime() - 3600_000) };
}

/** The documents the scenarios read, padded to BASE.total with filler SESSION documents. */
export function baseDocuments(encodeKey, now) {
  const docs = [];
  // a: every success tool has an OK GLOBAL entry (once fixed), a DEGRADED TENANT entry with a
  // recovery estimate a week out and an active INTERMITTENT cooldown — neither is disproven by
  // a success without signatures (D10), so a success reads them and writes nothing.
  for (let j = 0; j < BASE.successTools; j++) {
    const toolName = `succ_${j}`;
    docs.push(record(encodeKey, { scope: 'GLOBAL', toolName }, now));
    for (let t = 0; t < BASE.tenants; t++) {
      docs.push(
        record(
          encodeKey,
          {
            scope: 'TENANT',
            scopeId: `t-${t}`,
            toolName,
            tenantId: `t-${t}`,
            status: 'DEGRADED',
            code: 'BACKEND_FAILED',
            expectedRecoveryAt: new Date(now.getTime() + 7 * DAY),
            cooldowns: [cooldown('http-502', null, 'INTERMITTENT', 30_000, now)],
            lastDiagnosis: diagnosis('INTERMITTENT', 'BACKEND_FAILED', now),
          },
          now,
        ),
      );
    }
  }
  // b, distinct keys: one USER document per user with the user's own active cooldown.
  for (let u = 0; u < BASE.users; u++) {
    docs.push(
      record(
        encodeKey,
        {
          scope: 'USER',
          scopeId: `u-${u}`,
          toolName: failToolOfUser(u),
          tenantId: `t-${u % BASE.tenants}`,
          status: 'OK',
          cooldowns: [cooldown(BASE.failSignature, `u-${u}`, 'USER_SPECIFIC_TECHNICAL', 15 * 60_000, now)],
        },
        now,
      ),
    );
  }
  // b, hot key: a GLOBAL outage with a scope-wide cooldown.
  docs.push(
    record(
      encodeKey,
      {
        scope: 'GLOBAL',
        toolName: BASE.hotTool,
        status: 'DOWN',
        code: 'BACKEND_UNREACHABLE',
        expectedRecoveryAt: new Date(now.getTime() + 7 * DAY),
        cooldowns: [cooldown(BASE.hotSignature, null, 'TECHNICALLY_BROKEN', 7 * DAY, now)],
        lastDiagnosis: diagnosis('TECHNICALLY_BROKEN', 'BACKEND_UNREACHABLE', now),
      },
      now,
    ),
  );
  // c/d: one in ten manifest tools DOWN globally, one in ten DEGRADED, and a PROJECT outage for
  // every seventh tool in the first five projects — enough for suffixes, hints and shadowing.
  for (let j = 0; j < BASE.manifestTools; j++) {
    const toolName = manifestTool(j);
    if (j % 10 === 0) {
      docs.push(
        record(
          encodeKey,
          {
            scope: 'GLOBAL',
            toolName,
            status: 'DOWN',
            code: 'BACKEND_UNREACHABLE',
            expectedRecoveryAt: new Date(now.getTime() + 2 * 3600_000),
            lastDiagnosis: diagnosis('TECHNICALLY_BROKEN', 'BACKEND_UNREACHABLE', now),
          },
          now,
        ),
      );
    } else if (j % 10 === 1) {
      docs.push(
        record(
          encodeKey,
          {
            scope: 'GLOBAL',
            toolName,
            status: 'DEGRADED',
            code: 'BACKEND_FAILED',
            lastDiagnosis: diagnosis('INTERMITTENT', 'BACKEND_FAILED', now),
          },
          now,
        ),
      );
    }
    if (j % 7 === 0) {
      for (let p = 0; p < 5; p++) {
        docs.push(
          record(
            encodeKey,
            {
              scope: 'PROJECT',
              scopeId: `p-${p}`,
              toolName,
              tenantId: `t-${p % BASE.tenants}`,
              status: 'DOWN',
              code: 'BACKEND_FAILED',
              lastDiagnosis: diagnosis('TECHNICALLY_BROKEN', 'BACKEND_FAILED', now),
            },
            now,
          ),
        );
      }
    }
  }
  if (docs.length > BASE.total) throw new Error(`base set has ${docs.length} documents, more than ${BASE.total}`);
  for (let k = 0; docs.length < BASE.total; k++) docs.push(fillerDocument(encodeKey, k, now));
  return docs;
}

const FILLER_TOOLS = 200;
/** Filler k: what piles up in production (§1 problem 1, D14): SESSION entries of client tools. */
export function fillerDocument(encodeKey, k, now) {
  const down = k % 4 === 0;
  const at = new Date(now.getTime() - ((k % 720) + 1) * 3600_000);
  return record(
    encodeKey,
    {
      scope: 'SESSION',
      scopeId: `fs-${Math.floor(k / 8)}`,
      toolName: `client_tool_${k % FILLER_TOOLS}`,
      tenantId: `t-${k % BASE.tenants}`,
      status: down ? 'DOWN' : 'OK',
      since: at,
      code: down ? 'BACKEND_UNREACHABLE' : null,
      description: 'Read a file on the user machine.',
      history: [
        {
          status: down ? 'DOWN' : 'OK',
          classification: null,
          code: down ? 'BACKEND_UNREACHABLE' : null,
          note: down ? 'client disconnected' : 'client reconnected',
          by: 'system:session',
          at,
          recoveryAt: null,
        },
      ],
    },
    now,
  );
}

async function insertAll(collection, docs, { batch = 5000, inFlight = 3 } = {}) {
  const batches = [];
  for (let i = 0; i < docs.length; i += batch) batches.push(docs.slice(i, i + batch));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const b = batches[next++];
      await addPresence(collection, b);
      await collection.insertMany(b, { ordered: false });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** Empties the collection and inserts the base set (BASE.total documents). */
export async function seedBase(collection, now = new Date(), encodeKey = loadEncodeKey()) {
  await collection.deleteMany({});
  await collection.db.collection('tool_health_presence').deleteMany({ _id: { $ne: 'backfilled' } });
  const docs = baseDocuments(encodeKey, now);
  await insertAll(collection, docs);
  return docs.length;
}

/**
 * Adds filler documents until the collection holds `total` (fillers continue after the base
 * set's own). Generated per batch, so a million never sits in memory at once.
 */
export async function growTo(
  collection,
  total,
  now = new Date(),
  { encodeKey = loadEncodeKey(), batch = 5000, inFlight = 3, onProgress } = {},
) {
  const have = await collection.countDocuments({});
  const baseFillers = BASE.total - baseDocuments(encodeKey, now).filter((d) => d.scope !== 'SESSION').length;
  let k = Math.max(0, baseFillers) + Math.max(0, have - BASE.total);
  let missing = total - have;
  const started = Date.now();
  let inserted = 0;
  const jobs = new Set();
  while (missing > 0) {
    const n = Math.min(batch, missing);
    const docs = new Array(n);
    for (let i = 0; i < n; i++) docs[i] = fillerDocument(encodeKey, k++, now);
    missing -= n;
    const job = addPresence(collection, docs)
      .then(() => collection.insertMany(docs, { ordered: false }))
      .then(() => {
        inserted += n;
        onProgress?.(inserted, Date.now() - started);
        jobs.delete(job);
      });
    jobs.add(job);
    if (jobs.size >= inFlight) await Promise.race(jobs);
  }
  await Promise.all(jobs);
  return { inserted, ms: Date.now() - started };
}

// ---------------------------------------------------------------------------------------------
// CLI

const isMain = process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href;
if (isMain) {
  const args = process.argv.slice(2);
  const value = (flag, fallback) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const uri = value('--uri');
  const count = Number(value('--count', String(BASE.total)));
  if (!uri || !Number.isInteger(count) || count < BASE.total) {
    console.error(`usage: node bench/seed.mjs --uri mongodb://HOST:PORT/DB [--count N>=${BASE.total}]  (empties DB.tool_health first)`);
    process.exit(2);
  }
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(uri, { directConnection: true });
  try {
    await client.connect();
    const collection = client.db().collection('tool_health');
    const now = new Date();
    await seedBase(collection, now);
    const grown = await growTo(collection, count, now, {
      onProgress: (n, ms) => process.stderr.write(`\r${n} filler documents, ${Math.round((n / ms) * 1000)}/s`),
    });
    process.stderr.write(`\n${await collection.countDocuments({})} documents in ${uri} (${grown.ms} ms for the filler)\n`);
  } finally {
    await client.close();
  }
}
