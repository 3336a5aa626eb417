#!/usr/bin/env node
// Builds the Java contract client for one OpenAPI document and prints the classpath to run
// RoundTrip with (issue 14, P86). Usage: node tools/openapi-client/build.mjs <openapi.json>
//
// 1. the openapi-generator CLI jar, from Maven Central into .cache/openapi-generator (once);
// 2. the Java client generated from the document (java, library native, default settings);
// 3. its runtime dependencies resolved by Maven (pom.xml beside this file) into ~/.m2;
// 4. the generated sources and src/RoundTrip.java compiled with javac.
// Steps 2-4 are cached under .cache/openapi-client/<hash>, the hash of the document, this
// directory's files and the generator version: an unchanged contract costs no build. Any tool
// missing (java, javac, mvn) is an error, never a skip.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const GENERATOR_VERSION = '7.25.0';
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const documentPath = process.argv[2];
if (!documentPath) throw new Error('usage: build.mjs <openapi.json>');

const run = (cmd, args, options = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options }).toString();

function ensureGenerator() {
  const dir = path.join(root, '.cache', 'openapi-generator');
  const jar = path.join(dir, `openapi-generator-cli-${GENERATOR_VERSION}.jar`);
  if (!existsSync(jar)) {
    run('mvn', ['-B', '-q', 'dependency:copy', `-Dartifact=org.openapitools:openapi-generator-cli:${GENERATOR_VERSION}`, `-DoutputDirectory=${dir}`]);
  }
  if (!existsSync(jar)) throw new Error(`openapi-generator-cli ${GENERATOR_VERSION} did not arrive in ${dir}`);
  return jar;
}

function javaFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? javaFiles(path.join(dir, e.name)) : e.name.endsWith('.java') ? [path.join(dir, e.name)] : []));
}

const hash = createHash('sha256');
hash.update(GENERATOR_VERSION);
hash.update(readFileSync(documentPath));
for (const file of ['pom.xml', 'build.mjs', path.join('src', 'RoundTrip.java')]) hash.update(readFileSync(path.join(here, file)));
const out = path.join(root, '.cache', 'openapi-client', hash.digest('hex').slice(0, 16));
const done = path.join(out, 'classpath.txt');

if (!existsSync(done)) {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const jar = ensureGenerator();
  const generated = path.join(out, 'generated');
  run('java', ['-jar', jar, 'generate', '-g', 'java', '--library', 'native', '-i', documentPath, '-o', generated]);
  const depsFile = path.join(out, 'dependencies.txt');
  run('mvn', ['-B', '-q', '-f', path.join(here, 'pom.xml'), 'dependency:build-classpath', `-Dmdep.outputFile=${depsFile}`]);
  const deps = readFileSync(depsFile, 'utf8').trim();
  const classes = path.join(out, 'classes');
  const sources = [...javaFiles(path.join(generated, 'src', 'main', 'java')), path.join(here, 'src', 'RoundTrip.java')];
  writeFileSync(path.join(out, 'sources.txt'), sources.join('\n'));
  run('javac', ['-nowarn', '-encoding', 'UTF-8', '-d', classes, '-cp', deps, `@${path.join(out, 'sources.txt')}`]);
  const apis = readdirSync(path.join(generated, 'src', 'main', 'java', 'org', 'openapitools', 'client', 'api')).map((f) => f.replace(/\.java$/, ''));
  writeFileSync(path.join(out, 'apis.txt'), apis.join('\n'));
  writeFileSync(done, [classes, deps].join(path.delimiter));
  process.stderr.write(`built the Java client in ${Date.now() - started} ms into ${out}\n`);
}
process.stdout.write(readFileSync(done, 'utf8'));
