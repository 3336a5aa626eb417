#!/usr/bin/env node
// Builds the Python contract client for one OpenAPI document and prints, as one JSON line, the
// Python to run round_trip.py with and the folder to put on PYTHONPATH (issue 36).
//   node tools/openapi-python-client/build.mjs [openapi.json]     (default: the committed one)
//
// 1. a project-local virtual environment, .cache/venv-openapi-python-client, with
//    openapi-python-client and its dependencies at the versions requirements.txt pins (from PyPI,
//    once; keyed by that file's hash, like scripts/fuzz.sh's schemathesis venv);
// 2. the client generated from the document with openapi-python-client's defaults (no config
//    file, no flag), into .cache/openapi-python-client/<hash of the document and the pins>.
// The generated code is never edited: a document it reads wrongly fails the round trip.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const documentPath = path.resolve(process.argv[2] ?? path.join(root, 'openapi.json'));
const requirements = path.join(here, 'requirements.txt');
const pins = readFileSync(requirements);
const run = (cmd, args, options = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options }).toString();

const venv = path.join(root, '.cache', 'venv-openapi-python-client');
const bin = path.join(venv, 'bin');
const python = path.join(bin, 'python');
const marker = path.join(venv, `.pins-${createHash('sha256').update(pins).digest('hex').slice(0, 16)}`);
if (!existsSync(marker)) {
  process.stderr.write(`openapi-python-client: creating ${path.relative(root, venv)} from requirements.txt\n`);
  rmSync(venv, { recursive: true, force: true });
  run(process.env.PYTHON ?? 'python3', ['-m', 'venv', venv]);
  run(path.join(bin, 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
  writeFileSync(marker, '');
}

const hash = createHash('sha256').update(pins).update(readFileSync(documentPath)).digest('hex').slice(0, 16);
const out = path.join(root, '.cache', 'openapi-python-client', hash);
const done = path.join(out, 'package-root.txt');
if (!existsSync(done)) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // The venv's bin first on PATH: the generator runs its `ruff` post-hooks from there, as a user's install would.
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
  const log = run(path.join(bin, 'openapi-python-client'), ['generate', '--path', documentPath], { cwd: out, env });
  const [project] = readdirSync(out, { withFileTypes: true }).filter((e) => e.isDirectory());
  if (!project) throw new Error(`openapi-python-client generated nothing:\n${log}`);
  writeFileSync(path.join(out, 'generate.log'), log);
  writeFileSync(done, path.join(out, project.name));
}
process.stdout.write(`${JSON.stringify({ python, packageRoot: readFileSync(done, 'utf8'), log: readFileSync(path.join(out, 'generate.log'), 'utf8') })}\n`);
