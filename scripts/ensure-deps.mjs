// Installs node_modules from the lockfile (`npm ci`) unless they already match it — decided by
// content, not by file times (`git clone` and `cp` reset those; P33): the SHA-256 of
// package-lock.json is kept in node_modules/.deps-hash after an install. A node_modules without
// that file (an older install, a copy) is adopted when npm's own record of what it installed
// (node_modules/.package-lock.json) names the lockfile's packages at the lockfile's versions.
//
//   node scripts/ensure-deps.mjs      (scripts/ensure-deps.sh is the same for shell scripts)
//   import { ensureDeps } from './ensure-deps.mjs'; ensureDeps();
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether npm's record of the installed tree matches the lockfile (platform-skipped optionals aside). */
function installedTreeMatches(lock, hidden) {
  const wanted = lock.packages ?? {};
  const installed = hidden.packages ?? {};
  for (const [path, entry] of Object.entries(wanted)) {
    if (path === '') continue; // the project itself
    const got = installed[path];
    if (!got) {
      if (entry.optional) continue; // e.g. another platform's native binary
      return false;
    }
    if (got.version !== entry.version || (entry.integrity && got.integrity !== entry.integrity)) return false;
  }
  return Object.keys(installed).every((path) => path in wanted);
}

/** @returns {'up to date' | 'adopted' | 'installed'} */
export function ensureDeps({ root = ROOT, log = (line) => process.stderr.write(`ensure-deps: ${line}\n`) } = {}) {
  const lockText = readFileSync(join(root, 'package-lock.json'));
  const hash = createHash('sha256').update(lockText).digest('hex');
  const modules = join(root, 'node_modules');
  const marker = join(modules, '.deps-hash');
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === hash) return 'up to date';

  const hiddenLock = join(modules, '.package-lock.json');
  if (!existsSync(marker) && existsSync(hiddenLock)) {
    try {
      if (installedTreeMatches(JSON.parse(lockText), JSON.parse(readFileSync(hiddenLock, 'utf8')))) {
        writeFileSync(marker, `${hash}\n`);
        return 'adopted';
      }
    } catch {
      // unreadable record: reinstall below
    }
  }

  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    // A shared node_modules (a worktree's symlink): `npm ci` here would replace it for everyone.
    throw new Error(`node_modules (a symlink) does not match package-lock.json; run \`npm ci\` where it points, not here`);
  }
  log(existsSync(modules) ? 'package-lock.json changed: npm ci' : 'no node_modules: npm ci');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.error) throw new Error(`cannot run npm ci: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`npm ci failed (${result.signal ?? `exit code ${result.status}`})`);
  writeFileSync(marker, `${hash}\n`);
  return 'installed';
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  try {
    ensureDeps();
  } catch (error) {
    process.stderr.write(`ensure-deps: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
