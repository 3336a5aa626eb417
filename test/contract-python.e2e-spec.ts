import { execFile } from 'node:child_process';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 36: a Python client generated from the committed openapi.json by openapi-python-client
 * with its default settings, unedited (tools/openapi-python-client), runs the dispatcher's round
 * trip against the service: a failure report, an annotation, a batch, a system write, an
 * annotation by difference, a lookup and an idempotent replay. Not skippable: without python3
 * (or PyPI on the first run, to fill the project-local venv) this fails. The venv and the
 * generated client are cached under .cache/, keyed by the pinned versions and the document.
 */
function exec(
  cmd: string,
  args: string[],
  timeout: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${cmd} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

const TOOLS = path.join(__dirname, '..', 'tools', 'openapi-python-client');

describe('Python client generated from the OpenAPI document', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    await t.reset();
  });
  afterAll(() => t.close());

  it('generates without warnings and runs the round trip, 7 of 7 steps', async () => {
    const started = Date.now();
    const build = await exec(process.execPath, [path.join(TOOLS, 'build.mjs')], 600_000);
    const { python, packageRoot, log } = JSON.parse(build.stdout) as { python: string; packageRoot: string; log: string };
    expect(log).not.toMatch(/warning|error/i);
    const built = Date.now();
    const run = await exec(python, [path.join(TOOLS, 'round_trip.py'), baseUrl, KEYS.dispatcher], 120_000, {
      ...process.env,
      PYTHONPATH: packageRoot,
    });
    process.stdout.write(`Python contract client: build ${built - started} ms, round trip ${Date.now() - built} ms\n${run.stdout}`);
    const steps = run.stdout.split('\n').filter((line) => /^(ok|FAIL) /.test(line));
    expect(steps.filter((line) => line.startsWith('ok '))).toHaveLength(7);
    expect(run.stdout.trim().split('\n').pop()).toBe('ROUND TRIP OK');
  }, 720_000);
});
