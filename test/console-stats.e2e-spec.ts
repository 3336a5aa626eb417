import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, Page, chromium } from 'playwright-core';
import { OutcomeStatsRecorder } from '../src/features/tool-stats/outcome-stats-recorder.service';
import { ToolSignalsService } from '../src/features/tool-stats/tool-signals.service';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp } from './support/test-app';
import { CHROMIUM, CHROMIUM_FLAGS, watchPage } from './support/chromium';

/**
 * Issue 39: the console's statistics in Debian's headless Chromium — the tool view's last hour
 * and day, its signal, the 30- and 90-day uptime bars, and the Now board's "Calls now" column —
 * each read back against what the service stored. Screenshots go to .cache/test-reports/console/.
 */
const REPORTS = join(__dirname, '..', '.cache', 'test-reports', 'console');
const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('operator console: how each tool has been doing (issue 39)', () => {
  // The service's clock is moved back to write the past, then set to the wall clock's now.
  const clock = new FakeClock(new Date());
  let t: TestApp;
  let origin: string;
  let context: BrowserContext;
  let userDataDir: string;
  const sockets: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`bash scripts/install-chromium.sh\` and run the tests again.`);
    t = await createTestApp({ clock, env: { OUTBOX_POLL_MS: '20', STATS_FLUSH_MS: '300000', STATS_SIGNAL_REFRESH_MS: '0' } });
    await t.reset();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    origin = `http://127.0.0.1:${port}`;
    mkdirSync(REPORTS, { recursive: true });
    userDataDir = mkdtempSync(join(tmpdir(), 'tas-console-stats-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      timeout: 30_000,
      viewport: { width: 1280, height: 1000 },
    });
    context.on('page', (page) => watchPage(page, { sockets, problems }));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await t?.close();
  });

  const post = (path: string, key: string, body: object) =>
    t.http
      .post(path)
      .set('x-api-key', key)
      .send(body)
      .expect((r) => expect(r.status).toBeLessThan(300));

  async function calls(n: number, durationMs: number, ok = true): Promise<void> {
    await post('/v1/outcomes/batch', KEYS.dispatcher, {
      items: Array.from({ length: n }, () =>
        ok
          ? { outcome: 'success', toolName: 'jira_search', durationMs }
          : { outcome: 'failure', toolName: 'jira_search', durationMs, code: 'BACKEND_FAILED', errorSignature: 'http-502' },
      ),
    });
  }

  it('shows the last hour and day, the signal, 30 and 90 uptime bars, and the board column', async () => {
    const now = new Date();
    const today = Math.floor(now.getTime() / DAY) * DAY;
    const day = (offset: number) => new Date(today - offset * DAY).toISOString().slice(0, 10);

    // Three days ago: DOWN 06:00–12:00 for everyone. Two days ago: maintenance 10:00–12:00.
    clock.set(new Date(today - 3 * DAY + 6 * HOUR));
    await post('/v1/health/mark-unavailable', KEYS.dispatcher, {
      scope: 'GLOBAL',
      toolName: 'jira_search',
      code: 'BACKEND_FAILED',
      source: 'probe',
    });
    clock.set(new Date(today - 3 * DAY + 12 * HOUR));
    await post('/v1/health/mark-available', KEYS.dispatcher, { scope: 'GLOBAL', toolName: 'jira_search', source: 'probe' });
    clock.set(new Date(today - 2 * DAY + 9 * HOUR));
    await post('/v1/maintenance-windows', KEYS.admin, {
      scope: 'GLOBAL',
      toolName: 'jira_search',
      from: new Date(today - 2 * DAY + 10 * HOUR).toISOString(),
      until: new Date(today - 2 * DAY + 12 * HOUR).toISOString(),
      reason: 'Jira upgrade',
    });
    // The usual: two hours ago (outside the last hour), 40 calls of ~1 s; now, 25 calls of ~9 s and 5 failures.
    const usualAt = now.getTime() - 2 * HOUR;
    clock.set(new Date(usualAt));
    await calls(40, 1000);
    clock.set(now);
    await calls(25, 9000);
    await calls(5, 9000, false);
    // A problem at one project, so the tool has a row on the Now board.
    await post('/v1/health/mark-intermittent', KEYS.dispatcher, {
      scope: 'PROJECT',
      scopeId: 'apollo',
      toolName: 'jira_search',
      source: 'probe',
    });
    await t.app.get(OutcomeStatsRecorder).flush();
    await t.app.get(ToolSignalsService).refresh();

    const page: Page = await context.newPage();
    await page.goto(`${origin}/console`, { waitUntil: 'load' });
    await page.locator('#api-key').fill(KEYS.audit);
    await page.keyboard.press('Enter');
    await page.getByTestId('who').waitFor();

    // The board's column says what the LLM reads of the tool's recent calls.
    const row = page.locator('[data-row="jira_search|PROJECT|apollo"]');
    await row.waitFor();
    await expect(row.getByTestId('calls-now').innerText()).resolves.toBe('slow right now — about 10 s per call, usually about 900 ms');

    await page.getByRole('tab', { name: 'One tool' }).click();
    await page.getByLabel('Tool', { exact: true }).fill('jira_search');
    await page.getByRole('button', { name: 'Show' }).click();
    const panel = page.getByTestId('tool-stats');
    await panel.waitFor();
    await expect(page.getByTestId('tool-signals').innerText()).resolves.toBe(
      'Right now: slow right now — about 10 s per call, usually about 900 ms.',
    );
    const hour = await panel.getByRole('row', { name: /Last hour/ }).innerText();
    expect(hour.split('\t').map((c) => c.trim())).toEqual(['Last hour', '30', '83.3 %', '9.7 s', '9.7 s']);
    expect(await panel.getByRole('row', { name: /Last 24 hours/ }).innerText()).toMatch(/^Last 24 hours\t70\t/);

    // The bars: as many as days asked for, each saying its day; the outage and the maintenance where they were.
    for (const n of [30, 90]) {
      const bars = page.getByTestId(`uptime-${n}`).locator('li');
      await expect(bars.count()).resolves.toBe(n);
      await expect(bars.last().getAttribute('data-day')).resolves.toBe(day(0));
    }
    const bar = (offset: number) => page.getByTestId('uptime-30').locator(`li[data-day="${day(offset)}"]`);
    await expect(bar(3).getAttribute('aria-label')).resolves.toBe(`${day(3)}: usable 75 %, down 25 %; no calls`);
    await expect(bar(2).getAttribute('aria-label')).resolves.toBe(`${day(2)}: usable 91.7 %, maintenance 8.3 %; no calls`);
    // The usual calls fall on yesterday's bar when they were made before midnight UTC (P352).
    const yesterdaysCalls = usualAt < today ? '40 calls, 100 % worked' : 'no calls';
    await expect(bar(1).getAttribute('aria-label')).resolves.toBe(`${day(1)}: usable 100 %; ${yesterdaysCalls}`);
    const colour = (offset: number) =>
      page.evaluate(`getComputedStyle(document.querySelector('[data-testid="uptime-30"] li[data-day="${day(offset)}"]')).backgroundColor`);
    await expect(colour(3)).resolves.toBe('rgb(164, 14, 38)');
    await expect(colour(2)).resolves.toBe('rgb(5, 80, 174)');
    await expect(colour(1)).resolves.toBe('rgb(17, 99, 41)');
    // 30 days: 18 h down of 30 days' usable-or-down time (today counts up to now).
    expect(await page.getByTestId('uptime-30').locator('figcaption').innerText()).toMatch(/^Last 30 days: 99\.\d\d % uptime$/);
    await page.screenshot({ path: join(REPORTS, 'tool-stats.png'), fullPage: true });
    await panel.screenshot({ path: join(REPORTS, 'tool-stats-panel.png') });
    await page.close();
    expect(problems).toEqual([]);
  });
});
