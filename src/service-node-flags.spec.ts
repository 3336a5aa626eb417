import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The service runs with the same Node.js flags wherever it runs (P348): scripts/service-node-flags.mjs
 * names them for the launchers written in JavaScript; the Dockerfile's CMD and `npm run start:prod`
 * cannot import it, so they are held to it here, and so is every launcher that spawns dist/main.js.
 */
const ROOT = resolve(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function declaredFlags(): string[] {
  const match = /SERVICE_NODE_FLAGS = Object\.freeze\((\[[^\]]*\])\)/.exec(read('scripts/service-node-flags.mjs'));
  if (!match) throw new Error('scripts/service-node-flags.mjs no longer declares SERVICE_NODE_FLAGS as a frozen array literal');
  return JSON.parse(match[1].replace(/'/g, '"')) as string[];
}

describe('the service runs with one set of Node.js flags (P348)', () => {
  const flags = declaredFlags();

  it('names at least one flag, and node accepts each', () => {
    expect(flags.length).toBeGreaterThan(0);
    const run = spawnSync(process.execPath, [...flags, '-e', ''], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it("the production image's CMD runs dist/main.js with them", () => {
    const cmd = /^CMD (\[.*\])\s*$/m.exec(read('Dockerfile'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...flags, 'dist/main.js']);
  });

  it('npm run start:prod runs dist/main.js with them', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:prod']).toBe(['node', ...flags, 'dist/main.js'].join(' '));
  });

  it('every launcher that spawns dist/main.js passes them', () => {
    const launchers = ['scripts', 'bench'].flatMap((dir) =>
      readdirSync(join(ROOT, dir))
        .filter((name) => name.endsWith('.mjs'))
        .map((name) => `${dir}/${name}`),
    );
    const spawns = launchers.flatMap((file) =>
      read(file)
        .split('\n')
        .filter((line) => /'dist\/main\.js'|distMain\]/.test(line))
        .map((line) => ({ file, passesFlags: line.includes('...SERVICE_NODE_FLAGS') })),
    );
    expect(spawns.map((s) => s.file).sort()).toEqual(['bench/own-service.mjs', 'bench/run.mjs', 'scripts/start.mjs']);
    expect(spawns.filter((s) => !s.passesFlags)).toEqual([]);
  });
});
