// The fuzz step (issue 6, item 3): a throwaway mongo-java-server memory backend (the e2e tier's
// server, P31), the built service on it with a known admin key (admin holds every role, so every
// route is reachable), then schemathesis against the served OpenAPI document. Exits with
// schemathesis's code; everything started here is stopped, also on Ctrl-C.
//
// Output (P36): schemathesis's own output goes to a log file ($FUZZ_REPORT_DIR/schemathesis.log);
// this script prints a compact result — one line `fuzz: N passed, N failed` (API operations,
// from the JUnit report), one line with the generated test cases and the log's path, and on a
// failure the log's failure section — and, with FUZZ_SUMMARY_FILE set, writes the counts there
// as JSON for scripts/test-summary.mjs. Schemathesis's closing pytest-style banner is never
// printed: CI readers take `=== 1 warning in 23.25s ===` for a runner that ran nothing.
//
//   node fuzz/run.mjs               (scripts/fuzz.sh prepares the venv and dist/ first)
//   node fuzz/run.mjs --serve-only  (database + service only, to replay a finding by hand)
//
// Environment: SCHEMATHESIS (the binary, default .cache/venv/bin/schemathesis),
// FUZZ_SERVICE_ENTRY (default .cache/fuzz/dist/main.js), FUZZ_MAX_EXAMPLES (per operation and
// phase, default 50), FUZZ_MAX_TIME (seconds; unset = one pass; set = the phases repeat until it
// is spent), FUZZ_SEED (default 25, fixed: a run is repeatable; another seed explores further),
// FUZZ_WORKERS (default 1: with 2 workers, schemathesis 4.32.5 on CPython 3.11.7 failed operations
// with "SystemError: AST constructor recursion depth mismatch" from hypothesis's ast.parse),
// FUZZ_REPORT_DIR (default .cache/fuzz/report: JUnit XML, schemathesis.log and the service's log),
// FUZZ_SUMMARY_FILE (JSON counts for scripts/test-summary.mjs), FUZZ_VERBOSE=1 (also stream
// schemathesis's output to the terminal).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startDatabase } from '../scripts/db/servers.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const SCHEMATHESIS = resolve(process.env.SCHEMATHESIS ?? join(ROOT, '.cache', 'venv', 'bin', 'schemathesis'));
const MAX_EXAMPLES = process.env.FUZZ_MAX_EXAMPLES ?? '50';
const MAX_TIME = process.env.FUZZ_MAX_TIME; // unset: one pass of FUZZ_MAX_EXAMPLES per operation
const WORKERS = process.env.FUZZ_WORKERS ?? '1';
const REPORT_DIR = resolve(process.env.FUZZ_REPORT_DIR ?? join(ROOT, '.cache', 'fuzz', 'report'));
// scripts/fuzz.sh builds a private copy: a concurrent `nest build` (deleteOutDir) cannot pull dist/ away mid-run.
const ENTRY = resolve(process.env.FUZZ_SERVICE_ENTRY ?? join(ROOT, '.cache', 'fuzz', 'dist', 'main.js'));
// P144: every check schemathesis has (fuzz/schemathesis.toml: also schema-valid requests accepted,
// undeclared methods answered 405, headers and content types conformant; one check off where it
// says why), with a fixed seed so a run is repeatable and a failure is the code's, not the draw's
// (FUZZ_SEED overrides it).
const SEED = process.env.FUZZ_SEED ?? '25';

const log = (line) => process.stderr.write(`fuzz: ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(join(tmpdir(), 'tas-fuzz-'));
mkdirSync(REPORT_DIR, { recursive: true });
let database = null;
let service = null;
let fuzzer = null;
let cleaning = null;

function cleanup() {
  cleaning ??= (async () => {
    for (const child of [fuzzer, service]) {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([new Promise((r) => child.once('exit', r)), sleep(5000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }
    if (database) await database.stop();
    rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    cleanup().then(() => process.exit(130));
  });
}

async function waitReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) before it was ready; see ${REPORT_DIR}/service.log`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`the service was not ready within ${timeoutMs / 1000} s; see ${REPORT_DIR}/service.log`);
}

async function main() {
  const started = Date.now();
  database = await startDatabase('mongo-java-server');
  const port = await freePort();
  const key = `fuzz-admin-${randomBytes(16).toString('hex')}`;
  const serviceLog = createWriteStream(join(REPORT_DIR, 'service.log'));
  service = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      HOST,
      PORT: String(port),
      MONGODB_URI: `${database.uri}/tas_fuzz`,
      API_KEYS: `fuzz:admin:${createHash('sha256').update(key).digest('hex')}`,
      DB_SINGLE_WRITER: 'true', // D3: as `npm start` runs the embedded database
      LOG_LEVEL: 'warn', // a 500 is logged with its stack: the report's service.log shows why
      // P185: generated webhook endpoints reach no local service, and no attempt outlasts the fuzzer's request timeout.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout.pipe(serviceLog);
  service.stderr.pipe(serviceLog);
  const base = `http://${HOST}:${port}`;
  await waitReady(`${base}/health/ready`, service, 60_000);
  log(`service on ${base} (mongo-java-server ${database.uri}) ready after ${Date.now() - started} ms`);
  if (process.argv.includes('--serve-only')) {
    // For reproducing a finding by hand: the service stays up until Ctrl-C.
    log(`--serve-only: admin key ${key}; Ctrl-C to stop`);
    return new Promise(() => {});
  }

  const args = [
    '--config-file',
    join(ROOT, 'fuzz', 'schemathesis.toml'), // P144: the operations where one check is off, and why
    'run',
    `${base}/docs/openapi.json`,
    '--header', `x-api-key: ${key}`,
    '--max-examples', MAX_EXAMPLES,
    '--workers', WORKERS,
    '--request-timeout', '10',
    '--generation-database', 'none',
    '--report', 'junit',
    '--report-dir', REPORT_DIR,
    '--no-color',
  ];
  if (MAX_TIME) args.push('--max-time', MAX_TIME); // repeats the phases until the time is spent
  args.push('--seed', SEED);
  log(`schemathesis ${args.map((a) => (a.startsWith('x-api-key') ? 'x-api-key: ***' : a)).join(' ')}`);
  const logFile = join(REPORT_DIR, 'schemathesis.log');
  // schemathesis names its JUnit file junit-<timestamp>.xml: clear old ones, take the new one.
  for (const name of readdirSync(REPORT_DIR)) if (/^junit.*\.xml$/.test(name)) rmSync(join(REPORT_DIR, name), { force: true });
  const logStream = createWriteStream(logFile);
  // fuzz/hooks.py teaches schemathesis the document's own formats (an IANA time zone)
  const fuzzEnv = { ...process.env, SCHEMATHESIS_HOOKS: 'hooks', PYTHONPATH: join(ROOT, 'fuzz') };
  fuzzer = spawn(SCHEMATHESIS, args, { cwd: work, env: fuzzEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [fuzzer.stdout, fuzzer.stderr]) {
    stream.pipe(logStream, { end: false });
    if (process.env.FUZZ_VERBOSE === '1') stream.pipe(process.stderr, { end: false });
  }
  const code = await new Promise((resolve, reject) => {
    fuzzer.once('error', reject);
    fuzzer.once('close', (c, s) => resolve(c ?? (s ? 1 : 0)));
  });
  await new Promise((resolve) => logStream.end(resolve));
  return report({ code, logFile, seconds: Math.round((Date.now() - started) / 1000) });
}

/** The JUnit report's counts: one test case per API operation. */
function junitCounts(file) {
  if (!existsSync(file)) return null;
  const xml = readFileSync(file, 'utf8');
  const suites = [...xml.matchAll(/<testsuite\b([^>]*)>/g)].map((m) => m[1]);
  if (!suites.length) return null;
  const attr = (attrs, name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(attrs)?.[1] ?? 0);
  let tests = 0;
  let failed = 0;
  let skipped = 0;
  for (const attrs of suites) {
    tests += attr(attrs, 'tests');
    failed += attr(attrs, 'failures') + attr(attrs, 'errors');
    skipped += attr(attrs, 'skipped');
  }
  return { passed: tests - failed - skipped, failed, skipped };
}

/** Prints the compact result and returns the exit code (non-zero when anything failed). */
function report({ code, logFile, seconds }) {
  const text = readFileSync(logFile, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
  const junit = readdirSync(REPORT_DIR).find((name) => /^junit.*\.xml$/.test(name));
  const counts = junit ? junitCounts(join(REPORT_DIR, junit)) : null;
  const shownLog = relative(process.cwd(), logFile) || logFile;
  // "Test cases:\n  1520 generated, 1520 passed" (or "..., 3 found 2 unique failures")
  const cases = /Test cases:\s*\n\s*(\d+ generated[^\n]*)/.exec(text)?.[1]?.trim();
  const seed = /Seed:\s*(\d+)/.exec(text)?.[1];
  let failed = counts ? counts.failed : 0;
  if (code !== 0 && failed === 0) failed = 1; // schemathesis failed without a failing operation (a crash, a bad schema)
  const passed = counts ? counts.passed : 0;
  const skipped = counts ? counts.skipped : 0;
  process.stderr.write(`fuzz: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.stderr.write(
    `fuzz: counted per API operation (JUnit); ${cases ? `test cases ${cases}` : 'no test case count in the log'}` +
      `${seed ? `, seed ${seed}` : ''}, ${seconds} s; full output: ${shownLog}\n`,
  );
  // Warnings (e.g. P25's accepted "schema validation mismatch"), one line each.
  const warnings = /\nWarnings:\n([\s\S]*?)\n\n/.exec(text)?.[1] ?? '';
  for (const line of warnings.split('\n').map((l) => l.replace(/^\s*⚠️\s*/, '').trim()).filter(Boolean)) {
    process.stderr.write(`fuzz: warning: ${line}\n`);
  }
  if (code !== 0) {
    // The failures section (schemathesis prints it between "FAILURES" and "SUMMARY"), or the tail.
    const section = /={3,} FAILURES ={3,}[\s\S]*?(?=\n={3,} SUMMARY ={3,})/.exec(text)?.[0];
    const shown = (section ?? text.split('\n').slice(-40).join('\n')).replace(/^=+ (.*?) =+$/gm, '--- $1 ---');
    process.stderr.write(`fuzz: schemathesis exited with ${code}; ${section ? 'its failures' : 'the end of its output'}:\n${shown.trimEnd()}\n`);
  }
  if (process.env.FUZZ_SUMMARY_FILE) {
    writeFileSync(process.env.FUZZ_SUMMARY_FILE, JSON.stringify({ tool: 'schemathesis', passed, failed, skipped, log: logFile }) + '\n');
  }
  return code;
}

main()
  .catch((error) => {
    log(error instanceof Error ? error.message : String(error));
    return 1;
  })
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  });
