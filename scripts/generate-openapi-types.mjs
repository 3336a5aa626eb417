// Writes test/support/openapi-types.ts — the TypeScript client types openapi-typescript makes of
// the committed openapi.json, with its default options (P142: a request field with a default is
// optional without any flag). test/readme-examples.e2e-spec.ts types its client with them;
// test/contract-openapi.e2e-spec.ts fails when the served document would give other types.
//
//   npm run openapi:types                          # reads ./openapi.json, writes test/support/openapi-types.ts
//   node scripts/generate-openapi-types.mjs IN OUT # other files
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [input = path.join(ROOT, 'openapi.json'), output = path.join(ROOT, 'test', 'support', 'openapi-types.ts')] = process.argv.slice(2);

/** openapi-typescript's CLI, in its own process (it is an ES module package). */
export function generateOpenApiTypes(from, to) {
  const cli = path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  // From the root, where openapi-typescript finds the project's redocly.yaml.
  execFileSync(process.execPath, [cli, from, '--output', to], { stdio: 'pipe', cwd: ROOT });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  generateOpenApiTypes(path.resolve(input), path.resolve(output));
  process.stdout.write(`wrote ${path.resolve(output)}\n`);
}
