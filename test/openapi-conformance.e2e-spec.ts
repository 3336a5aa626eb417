import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TestApp, createTestApp } from './support/test-app';

/**
 * P141: the served OpenAPI document through the published linters its users run, as
 * pinned in package.json — Redocly's `recommended` ruleset (redocly.yaml: only the rules whose
 * warning docs/decisions.md P141 explains are off) and Spectral's `spectral:oas`. 0 errors, and
 * no warning except the ones P141 names.
 */
const run = promisify(execFile);
const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** The warnings P141 accepts, rule → why (the decision says it in full). */
const ACCEPTED_REDOCLY_WARNINGS: Record<string, string> = {
  'operation-4xx-response': 'the two probes take no input and need no key: no 4xx is reachable (P82 documents only reachable ones)',
  'info-license': 'a private service (package.json: UNLICENSED) has no licence to name',
};

describe('OpenAPI document under the published linters', () => {
  let t: TestApp;
  let file: string;

  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-lint-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
  });
  afterAll(() => t.close());

  it('Redocly lint (recommended): 0 errors, only the warnings P141 accepts', async () => {
    const result = await run(path.join(BIN, 'redocly'), ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
    const problems = (JSON.parse(result.stdout) as { problems: { ruleId: string; severity: string; message: string }[] }).problems;
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
    const warnings = problems.filter((p) => p.severity === 'warn' && !(p.ruleId in ACCEPTED_REDOCLY_WARNINGS));
    expect(errors).toEqual([]);
    expect(warnings.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  }, 120_000);

  it('Spectral (spectral:oas): 0 errors and 0 warnings', async () => {
    const result = await run(
      path.join(BIN, 'spectral'),
      ['lint', file, '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
      {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const findings = (result.stdout.trim() ? JSON.parse(result.stdout) : []) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    // severity 0 = error, 1 = warning (2 info and 3 hint are not findings of the ruleset's defaults)
    expect(findings.filter((f) => f.severity <= 1).map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`)).toEqual([]);
  }, 120_000);

  it('answers a method a known path does not serve with 405 and Allow, before reading any body (P144); an unknown path stays 404', async () => {
    const trace = await t.http.trace('/health/live');
    expect([trace.status, trace.headers.allow, trace.body]).toEqual([
      405,
      'GET, HEAD',
      {
        statusCode: 405,
        error: 'METHOD_NOT_ALLOWED',
        message: 'method: TRACE is not allowed on /health/live (Allow: GET, HEAD)',
        field: 'method',
      },
    ]);
    // QUERY (a body method to Fastify) without a content type: 405, not a 400 about the body
    // supertest sends every method Node knows; its types list only the common ones
    const query = await (
      t.http as unknown as Record<'query', (url: string) => Promise<{ status: number; headers: Record<string, string> }>>
    ).query('/v1/tools/jira_search/availability?userId=alice');
    expect([query.status, query.headers.allow]).toEqual([405, 'GET, HEAD']);
    const put = await t.http.put('/v1/outcomes/failure').set('content-type', 'application/json').send('{"not":"read"}');
    expect([put.status, put.headers.allow, put.body.error]).toEqual([405, 'POST', 'METHOD_NOT_ALLOWED']);
    const unknown = await t.http.trace('/v1/no-such-route');
    expect(unknown.status).toBe(404);
  });
});
