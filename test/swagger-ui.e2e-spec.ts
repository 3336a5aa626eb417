import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, Page, chromium } from 'playwright-core';
import { KEYS, TestApp, createTestApp } from './support/test-app';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium';

/**
 * P140: Swagger UI's Try-it-out works wherever the service runs. The page is served from a port
 * other than 3000 and opened in Debian's headless Chromium (playwright-core, as the playground
 * test does); a key goes in through the Authorize dialog, a read route is executed, the answer
 * is a 200 — and every request the page made went to its own origin (with the old
 * `servers: http://localhost:3000` the call went to :3000 and failed).
 */

describe('Swagger UI Try-it-out from any host and port', () => {
  let t: TestApp;
  let origin: string;
  let userDataDir: string;
  let context: BrowserContext;
  let page: Page;
  const requests: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`bash scripts/install-chromium.sh\` and the tests again.`);
    t = await createTestApp();
    await t.reset();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    expect(port).not.toBe(3000);
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
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await t?.close();
  });

  it('authorizes with a key, executes lookupAvailability and shows a 200, every request to the page origin', async () => {
    await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    // The Authorize dialog names the roles (P140), then takes the key.
    await page.locator('.btn.authorize').first().click();
    const dialog = page.locator('.modal-ux');
    await expect(dialog.textContent()).resolves.toContain('audit-reader');
    await dialog.locator('input[type=text], input[type=password]').first().fill(KEYS.dispatcher);
    await dialog.locator('button.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();

    const operation = page.locator('#operations-lookups-lookupAvailability');
    await operation.locator('.opblock-summary').first().click();
    await expect(operation.textContent()).resolves.toContain('with the role dispatcher, tool-health-writer, audit-reader or admin');
    await operation.locator('button.try-out__btn').click();
    // Issue 36 (P241): the optional context comes empty — its examples are shown, not sent — and
    // the path parameter is typed, as a user does.
    for (const name of ['sessionId', 'userId', 'projectId', 'tenantId']) {
      const row = operation.locator(`tr[data-param-name=${name}]`);
      expect({ name, value: await row.locator('input').inputValue() }).toEqual({ name, value: '' });
      await expect(row.textContent()).resolves.toContain(`example-${name.replace(/Id$/, '')}`);
    }
    await operation.locator('tr[data-param-name=toolName] input').fill('example-tool');
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');

    const called = requests.filter((url) => url.includes('/v1/tools/'));
    expect(called).toEqual([`${origin}/v1/tools/example-tool/availability`]);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
  }, 60_000);
});
