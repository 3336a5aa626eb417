import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, Page, chromium } from 'playwright-core';
import { DEFAULT_QUERY } from '../src/graphql/playground/playground.page';
import { KEYS, TestApp, createTestApp } from './support/test-app';
import { CHROMIUM, CHROMIUM_FLAGS, watchPage } from './support/chromium';

/**
 * The offline playground (GraphiQL + Explorer at GET /graphql, every asset from node_modules) in
 * Debian's headless Chromium driven by playwright-core. Never `npx playwright install`: it
 * downloads a browser, which fails offline; scripts/install-chromium.sh installs the package.
 */
const ASSETS = [
  '/graphql-assets/react/react.production.min.js',
  '/graphql-assets/react-dom/react-dom.production.min.js',
  '/graphql-assets/graphiql/graphiql.min.js',
  '/graphql-assets/graphiql/graphiql.min.css',
  '/graphql-assets/plugin-explorer/index.umd.js',
  '/graphql-assets/plugin-explorer/style.css',
  '/graphql-assets/graphql-ws/graphql-ws.min.js',
  '/graphql-assets/playground.js',
];

async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000, stepMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}

describe('GraphQL playground over HTTP (D17: public page, configurable)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves GraphiQL on GET /graphql to a browser, with only local asset URLs', async () => {
    const res = await t.http.get('/graphql').set('accept', 'text/html').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<div id="graphiql">');
    for (const asset of ASSETS) expect(res.text).toContain(`"${asset.slice(1)}"`);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('serves each asset from node_modules, and nothing else under /graphql-assets', async () => {
    for (const asset of ASSETS) {
      const res = await t.http.get(asset).expect(200);
      expect(res.headers['content-type']).toMatch(asset.endsWith('.css') ? /text\/css/ : /javascript/);
    }
    await t.http.get('/graphql-assets/graphiql/package.json').expect(404);
    await t.http.get('/graphql-assets/graphiql/graphiql.min.js.map').expect(404);
    await t.http.get('/graphql-assets/graphql-ws/graphql-ws.js').expect(404);
    await t.http.get('/graphql-assets/react/../react-dom/umd/react-dom.development.js').expect(404);
    await t.http.get('/graphql-assets/react/%2e%2e/%2e%2e/package.json').expect(404);
  });

  it('still needs a key for operations', async () => {
    await t.http.post('/graphql').send({ query: '{ __typename }' }).expect(401);
    const res = await t.http.post('/graphql').set('x-api-key', KEYS.audit).send({ query: '{ __typename }' }).expect(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers 404 for the page and its assets with PLAYGROUND_ENABLED=false; operations still work', async () => {
    const off = await createTestApp({ env: { PLAYGROUND_ENABLED: 'false' } });
    try {
      const page = await off.http.get('/graphql').set('accept', 'text/html').expect(404);
      expect(page.body).toMatchObject({ error: 'NOT_FOUND' });
      await off.http.get('/graphql-assets/graphiql/graphiql.min.js').expect(404);
      await off.http.get('/graphql-assets/playground.js').expect(404);
      const res = await off.http.post('/graphql').set('x-api-key', KEYS.audit).send({ query: '{ __typename }' }).expect(200);
      expect(res.body).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await off.close();
    }
  });

  it('refuses introspection with INTROSPECTION_ENABLED=false', async () => {
    const off = await createTestApp({ env: { INTROSPECTION_ENABLED: 'false' } });
    try {
      const res = await off.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query: '{ __schema { queryType { name } } }' });
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].message).toMatch(/introspection/i);
    } finally {
      await off.close();
    }
  });

  it('is off by default in production: no page, no introspection', async () => {
    const prod = await createTestApp({ env: { NODE_ENV: 'production' } });
    try {
      expect(prod.config.playgroundEnabled).toBe(false);
      expect(prod.config.introspectionEnabled).toBe(false);
      await prod.http.get('/graphql').set('accept', 'text/html').expect(404);
      await prod.http.get('/graphql-assets/graphiql/graphiql.min.js').expect(404);
      const res = await prod.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query: '{ __schema { queryType { name } } }' });
      expect(res.body.errors[0].message).toMatch(/introspection/i);
    } finally {
      await prod.close();
    }
  });
});

describe('GraphQL playground in headless Chromium, offline', () => {
  let t: TestApp;
  let origin: string;
  let userDataDir: string;
  let context: BrowserContext;
  let page: Page;
  /** Every request and WebSocket the browser opened, and what the page logged. */
  const requests: string[] = [];
  const sockets: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `${CHROMIUM} is missing, so the playground cannot be tested in a browser. ` +
          "Run `bash scripts/install-chromium.sh` (installs Debian's chromium package with apt-get) and run the tests again.",
      );
    }
    t = await createTestApp({ env: { OUTBOX_POLL_MS: '20' } });
    await t.reset();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    origin = `http://127.0.0.1:${port}`;

    userDataDir = mkdtempSync(join(tmpdir(), 'tas-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      timeout: 30_000,
    });
    context.on('request', (request) => requests.push(request.url()));
    page = context.pages()[0] ?? (await context.newPage());
    watchPage(page, { sockets, problems });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await t?.close();
  });

  /** Replaces the text of a CodeMirror editor (insertText: no auto-closed brackets, no hint popups). */
  async function setEditor(selector: string, text: string): Promise<void> {
    const editor = page.locator(selector).first();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
    // GraphiQL reads the edited text (operation name, headers) on a short debounce.
    await page.waitForTimeout(500);
  }

  async function response(): Promise<string> {
    return (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
  }

  const HEADERS = 'section.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden) .CodeMirror';
  const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
  const notice = () => page.locator('.tas-notice');

  /** Resolves when GraphiQL's introspection request with the given status has been answered. */
  function introspection(status: number) {
    return page.waitForResponse(
      (r) => r.url() === `${origin}/graphql` && r.status() === status && (r.request().postData() ?? '').includes('IntrospectionQuery'),
      { timeout: 15_000 },
    );
  }

  it('shows the default document on a fresh start and runs its query with an admin key (P65)', async () => {
    await page.goto(`${origin}/graphql`, { waitUntil: 'load' });
    await page.evaluate('window.localStorage.clear()');
    const refused = introspection(401);
    await page.reload({ waitUntil: 'load' });
    await page.locator(QUERY_EDITOR).waitFor({ timeout: 20_000 });
    await refused;

    // CodeMirror renders only the visible lines: read its whole value.
    await expect(page.evaluate(`document.querySelector(${JSON.stringify(QUERY_EDITOR)}).CodeMirror.getValue()`)).resolves.toBe(
      DEFAULT_QUERY,
    );
    // The headers editor is open and pre-filled with an empty key; without a key the schema does not load, and the page says why.
    await expect(page.locator(HEADERS).innerText()).resolves.toContain('"x-api-key": ""');
    await eventually(async () =>
      expect(await notice().innerText()).toMatch(
        /^The schema \(Docs, Explorer, completion\) did not load: an API key is required .*Headers tab as \{"x-api-key": "<key>"\}/,
      ),
    );

    const loaded = introspection(200);
    await setEditor(HEADERS, JSON.stringify({ 'x-api-key': KEYS.admin }));
    await loaded;
    await eventually(async () => expect(await notice().count()).toBe(0));

    // The cursor in the query picks it among the document's three operations.
    await page.locator(QUERY_EDITOR).getByText('toolOverview').first().click();
    await page.keyboard.press('Control+Enter');
    await eventually(async () => expect(await response()).toMatch(/"data": \{ "toolOverview": \{ "total": 0, "byStatus": \[/));
    expect(await response()).not.toContain('"errors"');
  }, 60_000);

  it('takes the API key in the headers editor and runs a query and a subscription', async () => {
    await t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: 'pg-jira', code: 'BACKEND_FAILED', source: 'e2e' })
      .expect(200);

    await page.goto(`${origin}/graphql`, { waitUntil: 'load' });
    await page.locator(QUERY_EDITOR).waitFor({ timeout: 20_000 });

    // With the key in place GraphiQL loads the schema (introspection needs a key too, D17).
    const introspected = introspection(200);
    await setEditor(HEADERS, JSON.stringify({ 'x-api-key': KEYS.audit }));
    await introspected;

    // The Explorer plugin renders the schema's root fields.
    await page.locator('button[aria-label="Show GraphiQL Explorer"]').click();
    await page.locator('.graphiql-explorer-root, .docExplorerWrap').first().waitFor({ timeout: 10_000 });
    await eventually(async () => expect(await page.locator('.graphiql-plugin').innerText()).toContain('toolHealth'));

    await setEditor(QUERY_EDITOR, '{ toolHealth(scope: GLOBAL, toolName: "pg-jira") { id toolName status } }');
    await page.locator('.graphiql-execute-button').click();
    await eventually(async () => expect(await response()).toMatch(/"toolName": "pg-jira", "status": "DOWN"/));
    expect(await response()).toContain('"id": ');

    // A subscription over graphql-ws, same page, same key (sent in connection_init).
    const before = sockets.length;
    t.clock.advance(1000);
    await setEditor(QUERY_EDITOR, 'subscription { toolHealthChanged(toolName: "pg-jira") { toolName status type } }');
    await page.locator('.graphiql-execute-button').click();
    await eventually(() => expect(sockets).toHaveLength(before + 1));
    // Same fake instant as the subscriber's start: delivered even if it lands before the server registered it.
    await t.http
      .post('/v1/health/mark-available')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: 'pg-jira', source: 'e2e' })
      .expect(200);
    await eventually(async () => expect(await response()).toMatch(/"toolName": "pg-jira", "status": "OK", "type": "STATUS_CHANGED"/));
    await page.locator('.graphiql-execute-button').click(); // stop
  }, 60_000);

  it('shows why a key without a subscriber role may not subscribe, and does not reconnect (P100)', async () => {
    await page.goto(`${origin}/graphql`, { waitUntil: 'load' });
    await page.locator(QUERY_EDITOR).waitFor({ timeout: 20_000 });
    const refused = introspection(403);
    await setEditor(HEADERS, JSON.stringify({ 'x-api-key': KEYS.dispatcher }));
    await refused;
    await eventually(async () =>
      expect(await notice().innerText()).toMatch(
        /did not load: introspection needs one of: admin, audit-reader\. This key lacks the role\./,
      ),
    );

    const before = sockets.length;
    await setEditor(QUERY_EDITOR, 'subscription { toolHealthChanged { id } }');
    await page.locator('.graphiql-execute-button').click();
    await eventually(async () =>
      expect(await response()).toContain(
        'Forbidden: key \\"dispatcher\\" may not subscribe (needs one of: admin, audit-reader). This key lacks the role.',
      ),
    );
    expect(await response()).toContain('"code": "FORBIDDEN"');
    // The run completed (the button offers to execute again, not to stop) ...
    await page.locator('.graphiql-execute-button[aria-label="Execute query (Ctrl-Enter)"]').waitFor({ timeout: 5_000 });
    // ... and stays so: the bundled client would have reconnected within these seconds (5 times, P100).
    await page.waitForTimeout(5_000);
    expect(sockets.length - before).toBe(1);
  }, 60_000);

  it('answers a query without a key with a message naming the header and the roles (P100)', async () => {
    await setEditor(HEADERS, JSON.stringify({ 'x-api-key': '' }));
    await setEditor(QUERY_EDITOR, '{ __typename }');
    await page.locator('.graphiql-execute-button').click();
    await eventually(async () =>
      expect(await response()).toMatch(
        /"message": "an API key is required \(header x-api-key\)\. Put a known API key in the Headers tab as \{\\"x-api-key\\": \\"<key>\\"\}\. Queries, subscriptions and the schema \(Docs, Explorer\) need a key with one of the roles: admin, audit-reader; mutations: admin\."/,
      ),
    );
    expect(await response()).toContain('"code": "UNAUTHENTICATED"');
  }, 30_000);

  it('made every request to 127.0.0.1', async () => {
    expect(requests.length).toBeGreaterThanOrEqual(ASSETS.length + 2); // page, assets, POSTs to /graphql
    expect(requests).toEqual(expect.arrayContaining([`${origin}/graphql`, ...ASSETS.map((a) => `${origin}${a}`)]));
    const offHost = [...requests, ...sockets].filter((url) => {
      const { protocol, hostname } = new URL(url);
      return !['data:', 'blob:'].includes(protocol) && hostname !== '127.0.0.1';
    });
    expect(offHost).toEqual([]);
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sockets)).toEqual(new Set([`${origin.replace('http', 'ws')}/graphql`]));
    expect(problems).toEqual([]);
  });
});
