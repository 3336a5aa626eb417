import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import type { paths } from './support/openapi-types';
import { assignments, bashBlocks, curlBody, loopWords } from './support/readme-shell';
import { maskRunDetails, readmeShellBlocks, replayShellBlocks, withAnswers } from './support/readme-replay';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 14: the README's dispatcher round trip ("A dispatcher round trip") executed against the
 * service through a client typed from the served OpenAPI document (openapi-typescript types in
 * test/support/openapi-types.ts, openapi-fetch over real HTTP). A renamed field or route breaks
 * the type check of this file before it breaks a user.
 */
describe('README examples through the typed TypeScript client', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;
  const NOW = '2026-12-02T10:53:12.498Z';
  const context = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
  const failure = {
    toolName: 'jira_search',
    context,
    code: 'BACKEND_FAILED' as const,
    errorSignature: 'http-502',
    message: '502 Bad Gateway',
  };
  const as = (key: string) => ({ headers: { 'x-api-key': key } });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
    await t.reset();
    t.clock.set(NOW);
  });
  afterAll(() => t.close());

  it('1. a call fails; nothing is known yet, so a diagnosis may be spawned', async () => {
    const { data, response } = await client.POST('/v1/outcomes/failure', { body: failure, ...as(KEYS.dispatcher) });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      spawn: true,
      reason: 'ELIGIBLE',
      reflectError: false,
      retryAt: null,
      retryAfterSeconds: null,
      coalescingKey: 'jira_search:http-502',
      status: 'OK',
      cooldown: null,
      why: expect.any(Array), // issue 24 (D20): the evaluation's steps, not shown in the README
      widerEvidence: null,
      signals: null,
    });
  });

  it('2. Agrajag diagnoses it as intermittent at project scope', async () => {
    const { data, response } = await client.POST('/v1/agrajag/tools/{name}/invoke', {
      params: { path: { name: 'tool_health_set_unavailable' } },
      body: {
        by: 'agrajag-7f3c',
        arguments: {
          toolName: 'jira_search',
          scope: 'PROJECT',
          scopeId: 'p-1',
          classification: 'INTERMITTENT',
          note: 'gateway 502 every few calls',
          errorSignature: 'http-502',
        },
      },
      ...as(KEYS.writer),
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      tool: 'tool_health_set_unavailable',
      summary: 'jira_search is now DEGRADED at PROJECT.',
      entry: { scope: 'PROJECT', scopeId: 'p-1', status: 'DEGRADED' },
    });
  });

  it('3. the same error again: in cooldown (30 s), no new diagnosis, reflect the error to the LLM', async () => {
    const { data } = await client.POST('/v1/outcomes/failure', { body: failure, ...as(KEYS.dispatcher) });
    expect(data).toEqual({
      spawn: false,
      reason: 'IN_COOLDOWN',
      reflectError: true,
      retryAt: '2026-12-02T10:53:42.498Z',
      retryAfterSeconds: 30,
      coalescingKey: 'jira_search:http-502',
      status: 'DEGRADED',
      cooldown: { scope: 'PROJECT', scopeId: 'p-1', errorSignature: 'http-502', userId: null },
      why: expect.any(Array), // issue 24 (D20): the evaluation's steps, not shown in the README
      signals: null,
      widerEvidence: null,
    });
  });

  it('the manifest annotation and the lookup show the tool intermittent in that context', async () => {
    const annotated = await client.POST('/v1/manifest/annotate', {
      body: {
        tools: [
          { name: 'jira_search', description: 'Search Jira issues.' },
          { name: 'calculator', description: 'Evaluate arithmetic.' },
        ],
        context,
        timeZone: 'Europe/Berlin',
      },
      ...as(KEYS.dispatcher),
    });
    expect(annotated.response.status).toBe(200);
    expect(annotated.data!.tools.map((tool) => [tool.name, tool.status, tool.doNotCall])).toEqual([
      ['jira_search', 'DEGRADED', false],
      ['calculator', 'OK', false],
    ]);
    expect(annotated.data!.tools[0].suffix).toMatch(/^intermittent/);
    const lookup = await client.GET('/v1/tools/{toolName}/availability', {
      params: { path: { toolName: 'jira_search' }, query: context },
      ...as(KEYS.dispatcher),
    });
    expect(lookup.data).toMatchObject({
      toolName: 'jira_search',
      status: 'DEGRADED',
      retesting: false,
      winner: { scope: 'PROJECT', scopeId: 'p-1' },
    });
  });

  it('4. a success naming the signature clears the entry; a second success changes nothing', async () => {
    const first = await client.POST('/v1/outcomes/success', {
      body: { toolName: 'jira_search', context, errorSignatures: ['http-502'] },
      ...as(KEYS.dispatcher),
    });
    expect(first.data).toEqual({ status: 'OK', changed: [{ scope: 'PROJECT', scopeId: 'p-1', status: 'OK' }] });
    const second = await client.POST('/v1/outcomes/success', { body: { toolName: 'jira_search', context }, ...as(KEYS.dispatcher) });
    expect(second.data).toEqual({ status: 'OK', changed: [] });
  });

  it('answers an error with the documented ErrorBody, typed per status', async () => {
    const { error, response } = await client.POST('/v1/outcomes/failure', {
      body: { ...failure, context: { ...context, projectId: 'bad id' } },
      ...as(KEYS.dispatcher),
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ statusCode: 400, error: 'INVALID_ARGUMENT', field: 'context.projectId' });
  });
});

/**
 * Issue 16: the README's "Maintenance windows and wider evidence" examples, replayed: the texts
 * there are copied from these answers (Europe/Berlin, Saturday 2026-05-23, context of the round
 * trip above). A changed wording or field breaks this test before it misleads a reader.
 */
describe('README examples: maintenance windows and wider evidence', () => {
  // The README as one line: its wrapped JSON (broken after a comma) and texts compare as sent.
  const markdown = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const readme = markdown.replace(/\n\s*/g, '');
  const shownInReadme = (text: string) => expect(readme).toContain(text);
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;
  const context = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
  const tools = [{ name: 'jira_search', description: 'Search Jira issues.' }];
  const as = (key: string) => ({ headers: { 'x-api-key': key } });
  const annotate = async (ctx: Record<string, string> = context) => {
    const { data } = await client.POST('/v1/manifest/annotate', {
      body: { tools, context: ctx, timeZone: 'Europe/Berlin' },
      ...as(KEYS.dispatcher),
    });
    return data!.tools[0];
  };
  const failure = (ctx: Record<string, string>) =>
    client.POST('/v1/outcomes/failure', {
      body: { toolName: 'jira_search', context: ctx, code: 'BACKEND_FAILED', errorSignature: 'http-502', message: '502 Bad Gateway' },
      ...as(KEYS.dispatcher),
    });

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' } });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });
  afterAll(() => t.close());

  it('a window scheduled for 18:00–20:00 Berlin time: coming, in force, explained, a failure and a success under it', async () => {
    // The window of the README's illustrations: 18:00–20:00 Berlin time, scheduled at 14:00 UTC.
    const window = {
      scope: 'GLOBAL' as const,
      scopeId: null,
      toolName: 'jira_search',
      from: '2026-05-23T16:00:00Z',
      until: '2026-05-23T18:00:00Z',
      reason: 'Jira upgrade',
    };
    const scheduled = await client.POST('/v1/maintenance-windows', { body: window, ...as(KEYS.admin) });
    expect(scheduled.response.status).toBe(201);
    expect(scheduled.data).toEqual({
      id: expect.any(String),
      scope: 'GLOBAL',
      scopeId: null,
      toolName: 'jira_search',
      from: '2026-05-23T16:00:00.000Z',
      until: '2026-05-23T18:00:00.000Z',
      reason: 'Jira upgrade',
      by: 'admin:admin',
      phase: 'UPCOMING',
      createdAt: '2026-05-23T14:00:00.000Z',
      updatedAt: '2026-05-23T14:00:00.000Z',
      cancelledAt: null,
      cancelledBy: null,
      recurrence: null,
      current: null,
      occurrencesAhead: [],
      seriesId: null,
      occurrence: null,
    });

    // As the LLM sees it, at 16:00 and at 18:30 Berlin time.
    const coming = await annotate();
    expect(coming).toMatchObject({ description: 'Search Jira issues. (maintenance planned 18:00–20:00)', doNotCall: false });
    t.clock.set('2026-05-23T16:30:00.000Z');
    const inForce = await annotate();
    expect(inForce).toMatchObject({ description: 'Search Jira issues. (under maintenance — expected back at 20:00)', doNotCall: true });
    shownInReadme(`jira_search   ${coming.description}`);
    shownInReadme(`jira_search   ${inForce.description}`);
    const explained = await client.POST('/v1/manifest/explain', {
      body: { toolName: 'jira_search', context, registryKnows: true, timeZone: 'Europe/Berlin' },
      ...as(KEYS.dispatcher),
    });
    expect(explained.data).toMatchObject({
      code: 'BACKEND_FAILED',
      usable: false,
      message:
        'Tool jira_search is under maintenance — expected back at 20:00 (scheduled maintenance at GLOBAL scope); do not call it, plan without it.',
    });
    shownInReadme(`explain       ${explained.data!.message}`);

    // As the dispatcher sees it.
    const failed = await failure(context);
    expect(failed.data).toEqual({
      spawn: false,
      reason: 'UNDER_MAINTENANCE',
      reflectError: true,
      retryAt: '2026-05-23T18:00:00.000Z',
      retryAfterSeconds: 5400,
      signals: null,
      coalescingKey: 'jira_search:http-502',
      widerEvidence: null,
      status: 'DOWN',
      cooldown: null,
      why: expect.any(Array), // issue 24 (D20): the evaluation's steps, not shown in the README
    });
    const ok = await client.POST('/v1/outcomes/success', { body: { toolName: 'jira_search', context }, ...as(KEYS.dispatcher) });
    expect(ok.data).toEqual({ status: 'DOWN', changed: [] });
  });

  it('the 5th user in a 3rd project of acme: wider evidence at TENANT; the verdict it queued, as another user sees it', async () => {
    t.clock.set('2026-05-23T19:00:00.000Z');
    const answers = [];
    // The README's loop (its users and projects), one failure each, half a minute apart.
    const script = bashBlocks(markdown).find((b) => b.includes('for up in'))!;
    const { words } = loopWords(script);
    expect(words).toEqual(['alice:p-1', 'bob:p-1', 'carol:p-2', 'dave:p-2', 'erin:p-3']);
    for (const word of words) {
      t.clock.advance(30_000);
      const [userId, projectId] = word.split(':');
      answers.push((await failure({ userId, projectId, tenantId: 'acme' })).data);
    }
    expect(answers.slice(0, 4).map((a) => [a?.coalescingKey, a?.widerEvidence])).toEqual(Array(4).fill(['jira_search:http-502', null]));
    expect(answers[4]).toEqual({
      spawn: true,
      reason: 'ELIGIBLE',
      reflectError: false,
      retryAt: null,
      signals: null,
      retryAfterSeconds: null,
      coalescingKey: 'jira_search:http-502@TENANT:acme',
      widerEvidence: { scope: 'TENANT', scopeId: 'acme', distinctUsers: 5, distinctProjects: 3, since: '2026-05-23T19:00:00.000Z' },
      status: 'OK',
      cooldown: null,
      why: expect.any(Array), // issue 24 (D20): the evaluation's steps, not shown in the README
    });

    // The one diagnosis the queue ran for the wider key writes at TENANT: a user who never failed reads it.
    const verdict = await client.POST('/v1/agrajag/tools/{name}/invoke', {
      params: { path: { name: 'tool_health_set_unavailable' } },
      body: {
        by: 'agrajag-9a1d',
        arguments: {
          toolName: 'jira_search',
          scope: 'TENANT',
          scopeId: 'acme',
          classification: 'TECHNICALLY_BROKEN',
          note: 'gateway 502 for every project of acme',
          errorSignature: 'http-502',
          expectedRecoveryAt: '2026-05-23T20:00:00Z',
        },
      },
      ...as(KEYS.writer),
    });
    expect(verdict.data).toMatchObject({ summary: 'jira_search is now DOWN at TENANT.' });
    const elsewhere = await annotate({ userId: 'frank', projectId: 'p-4', tenantId: 'acme' });
    expect(elsewhere).toMatchObject({
      description: 'Search Jira issues. (currently unavailable — expected back at 22:00)',
      doNotCall: true,
    });
  });
});

/**
 * P143: the README's requests replayed as written on today's date (the real clock): the
 * maintenance script's relative dates are in the future on any day, the annotate request is
 * accepted as shown, and the MCP call's `by` is what a dev key's name gives.
 */
describe('README examples: replayed as written, today', () => {
  const markdown = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0' } });
    await t.reset();
    t.clock.set(new Date().toISOString());
  });
  afterAll(() => t.close());

  it('schedules the maintenance window of the README script: in the future, whatever the day', async () => {
    const script = bashBlocks(markdown).find((b) => b.includes('/v1/maintenance-windows'))!;
    const now = t.clock.now();
    const body = curlBody(script, assignments(script, now), now);
    const res = await t.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send(body as object);
    expect([res.status, res.body.phase]).toEqual([201, 'UPCOMING']);
    expect(Date.parse(res.body.from)).toBeGreaterThan(now.getTime());
  });

  it("shows the MCP call's `by` as a dev tool-health-writer key writes it, and a relative expected recovery", () => {
    expect(markdown).toContain('"by":"key:dev-tool-health-writer"');
    expect(markdown).not.toContain('key:agrajag');
    const call = bashBlocks(markdown).find((b) => b.includes('localhost:3000/mcp'))!;
    expect(call).toContain(`"expectedRecoveryAt":"'"$(date -u -d '+30 minutes' +%Y-%m-%dT%H:%M:00Z)"'"`);
  });
});

/**
 * Issue 27: the README's "Many reports, many tools, and the turn by difference" examples (D22,
 * D23) through the typed client, at a fixed time (the README's own blocks are replayed as written
 * by the last describe of this file).
 */
describe('README examples: batches, bulk system writes, annotation by difference', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;
  const context = { sessionId: 's-7', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
  const as = (key: string) => ({ headers: { 'x-api-key': key } });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
    await t.reset();
    t.clock.set('2026-12-02T14:58:00.000Z');
  });
  afterAll(() => t.close());

  it('the MCP server closed: its tools DOWN at the project in one request', async () => {
    const { data, response } = await client.POST('/v1/health/bulk/mark-unavailable', {
      body: {
        scope: 'PROJECT',
        scopeId: 'p-1',
        toolNames: ['jira_search', 'jira_create_issue'],
        code: 'BACKEND_UNREACHABLE',
        source: 'mcp-router',
        note: 'MCP connection closed',
      },
      ...as(KEYS.dispatcher),
    });
    expect(response.status).toBe(200);
    const summary = data!.results.map(({ toolName, status, entry }) => ({
      toolName,
      status,
      entryStatus: entry?.status,
      version: entry?.version,
    }));
    expect(summary).toEqual([
      { toolName: 'jira_search', status: 200, entryStatus: 'DOWN', version: 1 },
      { toolName: 'jira_create_issue', status: 200, entryStatus: 'DOWN', version: 1 },
    ]);
  });

  it('the turn by difference: only what the LLM must read differently', async () => {
    const { data, response } = await client.POST('/v1/manifest/annotate/changes', {
      body: {
        tools: [{ name: 'calculator' }, { name: 'jira_search' }, { name: 'jira_create_issue' }, { name: 'github_search' }],
        context,
        timeZone: 'Europe/Berlin',
      },
      ...as(KEYS.dispatcher),
    });
    expect(response.status).toBe(200);
    expect([data!.tools.map((tool) => [tool.name, tool.suffix]), data!.plain]).toEqual([
      [
        ['jira_search', 'unavailable since 15:58'],
        ['jira_create_issue', 'unavailable since 15:58'],
      ],
      2,
    ]);
  });

  it('reports in one batch, answered in order, a bad one alone', async () => {
    const { data, response } = await client.POST('/v1/outcomes/batch', {
      body: {
        items: [
          { outcome: 'success', toolName: 'calculator', context },
          { outcome: 'failure', toolName: 'github_search', context, code: 'BACKEND_FAILED', errorSignature: 'http-500' },
          { outcome: 'success', toolName: 'jira search', context },
        ],
      },
      ...as(KEYS.dispatcher),
    });
    expect(response.status).toBe(200);
    expect(data!.results.map((r) => [r.status, r.success?.status ?? r.failure?.reason ?? r.error?.field])).toEqual([
      [200, 'OK'],
      [200, 'ELIGIBLE'],
      [400, 'toolName'],
    ]);
  });
});

/**
 * Issue 36 (P246): every shell block of the README runs as written on a fresh service, in order,
 * in one shell, with the keys `npm start` writes (dev keys named `dev-<role>`, read from
 * `.data/dev-api-keys.json` by the line the README shows), and prints the answer shown below it
 * (masked: instants, ids, secrets, clock times). A stale example fails here. README_UPDATE=1
 * writes the answers of this run into README.md instead (then read the diff).
 */
describe('README: every shell block, replayed as written', () => {
  const file = join(__dirname, '..', 'README.md');
  const markdown = readFileSync(file, 'utf8');
  const devKeys = Object.fromEntries(
    ['admin', 'dispatcher', 'tool-health-writer', 'audit-reader'].map((role) => [role, `dev-${role}-${randomBytes(12).toString('hex')}`]),
  );
  let t: TestApp;
  let clone: string;

  beforeAll(async () => {
    // The keys as `npm start` makes them (scripts/start.mjs): one per role, named dev-<role>.
    const apiKeys = Object.entries(devKeys)
      .map(([role, key]) => `dev-${role}:${role}:${createHash('sha256').update(key).digest('hex')}`)
      .join(',');
    t = await createTestApp({ env: { API_KEYS: apiKeys, MAINTENANCE_TICK_MS: '0', WEBHOOK_POLL_MS: '0' } });
    await t.reset();
    t.clock.set(new Date().toISOString());
    await t.app.listen(0, '127.0.0.1');
    clone = mkdtempSync(join(tmpdir(), 'readme-clone-'));
    mkdirSync(join(clone, '.data'));
    writeFileSync(join(clone, '.data', 'dev-api-keys.json'), JSON.stringify(devKeys, null, 2));
  });
  afterAll(async () => {
    await t.close();
    rmSync(clone, { recursive: true, force: true });
  });

  it('runs every bash block without an error, each printing the answer the README shows', async () => {
    const blocks = readmeShellBlocks(markdown);
    expect(blocks.length).toBeGreaterThan(10);
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const run = await replayShellBlocks(blocks, { cwd: clone, port, timeoutMs: 60_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.outputs).toHaveLength(blocks.length);
    if (process.env.README_UPDATE === '1') {
      writeFileSync(file, withAnswers(markdown, blocks, run.outputs));
      return;
    }
    const differences = blocks.flatMap((block, i) =>
      block.answer && maskRunDetails(block.answer.text) !== maskRunDetails(run.outputs[i])
        ? [`README.md:${block.line}\n  shown: ${maskRunDetails(block.answer.text)}\n  got:   ${maskRunDetails(run.outputs[i])}`]
        : [],
    );
    expect(differences).toEqual([]);
  }, 120_000);

  it('shows no request in HTTP notation and no macOS-only command; npm commands it names exist', () => {
    expect(markdown).not.toMatch(/```http/);
    expect(markdown).not.toMatch(/^\s*open http/m);
    const scripts = Object.keys((JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { scripts: object }).scripts);
    for (const [, command] of markdown.matchAll(/^\$ npm (?:run )?([a-z:-]+)/gm)) expect(scripts).toContain(command);
  });
});
