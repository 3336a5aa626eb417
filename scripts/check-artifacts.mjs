// `npm run artifacts:check` (a step of `npm test`, P153): generates every committed artifact
// again into a scratch folder — schema.gql, openapi.json, test/support/openapi-types.ts and the
// console's GraphQL types (console/src/graphql/generated.ts), each by
// its own command, none needing a database — and fails when a committed one differs, naming it
// and the command that brings it up to date (`npm run artifacts`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'artifacts-'));
const npm = (script, ...args) => execFileSync('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });

const ARTIFACTS = [
  { file: 'schema.gql', make: (out) => npm('schema:generate', out) },
  { file: 'openapi.json', make: (out) => npm('openapi:generate', out) },
  {
    file: 'test/support/openapi-types.ts',
    // From the committed document: a stale openapi.json is reported as such, not twice.
    make: (out) => execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'generate-openapi-types.mjs'), path.join(ROOT, 'openapi.json'), out]),
  },
  {
    file: 'console/src/graphql/generated.ts',
    // From the committed schema.gql and the console's operations (P267).
    make: (out) => execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'generate-console-types.mjs'), out], { stdio: ['ignore', 'ignore', 'inherit'] }),
  },
];

let stale = 0;
try {
  for (const { file, make } of ARTIFACTS) {
    const out = path.join(scratch, path.basename(file));
    make(out);
    let committed = null;
    try {
      committed = readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      // missing counts as stale
    }
    if (committed !== readFileSync(out, 'utf8')) {
      stale++;
      process.stderr.write(`artifacts: ${file} is stale (not what its generator makes of the code now); run \`npm run artifacts\` and commit it\n`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.stdout.write(`artifacts: ${ARTIFACTS.length - stale} of ${ARTIFACTS.length} up to date\n`);
process.exit(stale === 0 ? 0 : 1);
