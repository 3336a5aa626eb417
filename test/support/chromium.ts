import type { Page } from 'playwright-core';

/**
 * Debian's headless Chromium as the browser tests drive it with playwright-core (the playground,
 * Swagger UI and the operator console). Never `npx playwright install`: it downloads a browser,
 * which fails offline; scripts/install-chromium.sh installs the distribution's package.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Records what a browser test asserts about a page: the WebSockets it opens, and its script
 * errors and Content-Security-Policy refusals (each a problem the page must not have).
 */
export function watchPage(page: Page, seen: { sockets: string[]; problems: string[] }): void {
  page.on('websocket', (socket) => seen.sockets.push(socket.url()));
  page.on('pageerror', (error) => seen.problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) seen.problems.push(`console: ${message.text()}`);
  });
}
