// Builds the operator console (D26, P170) from console/src into console/dist (git-ignored): one
// minified ES module and one style sheet, bundled by esbuild with Preact; the service serves them
// at /console/assets/. Called by `npm start` (scripts/start.mjs, when the bundle is missing or
// older than its sources), by the e2e tier's global setup and by the Dockerfile; by hand:
// `npm run console:build`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = join(ROOT, 'console', 'src');
export const CONSOLE_DIST = join(ROOT, 'console', 'dist');
const OUTPUTS = ['console.js', 'console.css'].map((f) => join(CONSOLE_DIST, f));

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0);
}

/** Whether the bundle is missing or older than its sources (or than the build script). */
export function consoleBuildNeeded() {
  const sources = Math.max(newest(SOURCES), newest(fileURLToPath(import.meta.url)));
  return OUTPUTS.some((file) => !existsSync(file) || statSync(file).mtimeMs < sources);
}

export async function buildConsole() {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: ROOT,
    entryPoints: { console: join(SOURCES, 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020'],
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    outdir: CONSOLE_DIST,
    logLevel: 'warning',
  });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { console: join(SOURCES, 'console.css') },
    bundle: true,
    minify: true,
    outdir: CONSOLE_DIST,
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  await buildConsole();
  process.stderr.write(`console: built ${CONSOLE_DIST} in ${Date.now() - started} ms\n`);
}
