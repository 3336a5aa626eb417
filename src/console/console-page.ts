import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** URL of the page and prefix of its bundle (P170). */
export const CONSOLE_PATH = '/console';
export const CONSOLE_ASSETS_PREFIX = '/console/assets/';

/** The built page (scripts/build-console.mjs writes it from console/src): two levels above this file, in dist/ and in src/ alike. */
export const CONSOLE_BUNDLE_DIR = resolve(__dirname, '..', '..', 'console', 'dist');

/** The files of the bundle the page loads; nothing else under the prefix is served. */
export const CONSOLE_ASSET_FILES = ['console.js', 'console.css'] as const;
export type ConsoleAssetFile = (typeof CONSOLE_ASSET_FILES)[number];

const CONTENT_TYPES: Record<ConsoleAssetFile, string> = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

/** The built assets, read once; null when the bundle has not been built (`npm run console:build`). */
export function loadConsoleAssets(dir: string = CONSOLE_BUNDLE_DIR): Map<ConsoleAssetFile, ConsoleAsset> | null {
  if (!CONSOLE_ASSET_FILES.every((file) => existsSync(join(dir, file)))) return null;
  return new Map(CONSOLE_ASSET_FILES.map((file) => [file, { body: readFileSync(join(dir, file)), contentType: CONTENT_TYPES[file] }]));
}

/** A Host header that can be named in a policy (name or address, optional port); anything else is left out. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * D26's strict policy: no inline script, scripts and styles from this origin only, requests to
 * this origin only — HTTP, and graphql-ws on ws:/wss: of the same host (named explicitly:
 * browsers before CSP level 3 do not count ws: as 'self').
 */
export function consoleContentSecurityPolicy(host: string | undefined): string {
  const sockets = host && PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `connect-src 'self'${sockets}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page: a shell the script fills; every URL relative to /console, so a path prefix in front still works. */
export function consoleHtml(built: boolean): string {
  const body = built
    ? '<div id="app"><p>Loading the operator console…</p></div>' +
      '<noscript><p>The operator console needs JavaScript.</p></noscript>' +
      '<script type="module" src="console/assets/console.js"></script>'
    : '<main id="app"><h1>Operator console</h1><p>The console has not been built on this server: run <code>npm run console:build</code> (npm start and npm test do it) and restart the service.</p></main>';
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Tool availability — operator console</title>',
    built ? '<link rel="stylesheet" href="console/assets/console.css">' : '',
    '</head>',
    `<body>${body}</body>`,
    '</html>',
  ].join('\n');
}
