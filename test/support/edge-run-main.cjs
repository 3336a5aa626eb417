// Runs src/main.ts in a child process without a build: compiles each .ts file with @swc/core and
// the repository's .swcrc (the options jest's @swc/jest uses). For tests that need the real
// process (signals): `node test/support/edge-run-main.cjs` with the service's env.
const fs = require('node:fs');
const path = require('node:path');
const { addHook } = require('pirates');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const options = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
delete options.$schema;
addHook((code, filename) => swc.transformSync(code, { ...options, filename, sourceMaps: 'inline', swcrc: false }).code, {
  exts: ['.ts'],
  ignoreNodeModules: true,
});
require(path.join(root, 'src', 'main.ts'));
