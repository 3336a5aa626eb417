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
