import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The wiring stays visible (P107): a module imports the modules whose providers it injects, so
 * only configuration is global; and no source file reaches itself through its own imports.
 * The house has floors (P155, the README's Architecture): a file imports only from its own floor or
 * the floors below it, so a lower room never learns of a higher one.
 */

const SRC = __dirname;
const ROOT = resolve(SRC, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The floors of src/, lowest first (P155). A room is a folder directly under src/ (every feature
 * room under src/features/ and every store under src/persistence/ shares its parent's floor);
 * the files at the top of src/ (app.module.ts, app.setup.ts, main.ts) are the roof.
 */
export const FLOORS: readonly (readonly string[])[] = [
  ['domain'], // the spec's rules, pure (lint forbids framework imports there)
  ['runtime', 'config'], // clock, logger, settings
  ['database'], // shared database infrastructure: liveness, watchdog, write guard, mutex, coalescer
  ['errors', 'auth', 'edge', 'shapes'], // error map, keys and roles, HTTP edge helpers, answer/request shape kit
  ['persistence'], // one folder per store: schema, port, Mongo adapter
  ['write-path', 'metrics'], // the single write path and event relay; counters
  ['features'], // one room per feature: REST controller, GraphQL resolver, service, shapes
  ['graphql', 'mcp', 'openapi', 'ops', 'idempotency', 'console'], // the edges over the features (console: the operator page, D26)
];
const ROOF = FLOORS.length;

/** The floor of a source file under src/ (0 = lowest); the roof for the files at the top of src/. */
export function floorOf(srcRelative: string): number {
  const parts = srcRelative.split('/');
  if (parts.length === 1) return ROOF;
  const floor = FLOORS.findIndex((rooms) => rooms.includes(parts[0]));
  if (floor < 0) throw new Error(`src/${parts[0]}/ is on no floor: add it to FLOORS in src/architecture.spec.ts`);
  return floor;
}

const RELATIVE_IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;

/** The files `file` imports by relative path (type-only imports too: they tie the files as well). */
export function relativeImports(file: string, text: string): string[] {
  return [...text.matchAll(RELATIVE_IMPORT)]
    .map((m) => resolve(dirname(file), m[1] ?? m[2]))
    .map((base) => [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate)))
    .filter((target): target is string => target !== undefined);
}

/** Every import circle of the graph, each as its files in order (Tarjan's strongly connected components). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('architecture: explicit module imports, no import circles', () => {
  const files = sourceFiles(SRC);
  const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const name = (f: string) => relative(ROOT, f);

  it('finds a circle where there is one, and none in a line', () => {
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
    expect(relativeImports(join(SRC, 'app.module.ts'), text.get(join(SRC, 'app.module.ts'))!)).toContain(
      join(SRC, 'config', 'config.module.ts'),
    );
  });

  it('has no source file that reaches itself through its imports', () => {
    const graph = new Map(files.map((f) => [f, relativeImports(f, text.get(f)!)]));
    expect(circles(graph).map((circle) => circle.map(name))).toEqual([]);
  });

  it('puts every folder of src/ on a floor, and knows an upward import when it sees one', () => {
    expect(floorOf('domain/cascade.ts')).toBe(0);
    expect(floorOf('features/cooldowns/cooldown.service.ts')).toBeGreaterThan(floorOf('persistence/tool-health/tool-health.schema.ts'));
    expect(floorOf('app.module.ts')).toBe(ROOF);
    expect(() => floorOf('nowhere/x.ts')).toThrow(/no floor/);
    const rooms = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory());
    for (const room of rooms) expect(() => floorOf(`${room.name}/x.ts`)).not.toThrow();
  });

  it('has no import that runs up a floor', () => {
    const upward = files.flatMap((f) =>
      relativeImports(f, text.get(f)!)
        .filter((to) => floorOf(relative(SRC, to)) > floorOf(relative(SRC, f)))
        .map((to) => `${name(f)} (floor ${floorOf(relative(SRC, f))}) -> ${name(to)} (floor ${floorOf(relative(SRC, to))})`),
    );
    expect(upward).toEqual([]);
  });

  it('has no two rooms that reach each other through their imports (each feature and each store a room of its own)', () => {
    const roomOf = (f: string) => {
      const parts = relative(SRC, f).split('/');
      if (parts.length === 1) return 'src';
      return ['features', 'persistence'].includes(parts[0]) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
    };
    const rooms = new Map<string, Set<string>>();
    for (const f of files) {
      const from = roomOf(f);
      const out = rooms.get(from) ?? new Set<string>();
      for (const to of relativeImports(f, text.get(f)!)) if (roomOf(to) !== from) out.add(roomOf(to));
      rooms.set(from, out);
    }
    expect(circles(new Map([...rooms].map(([room, to]) => [room, [...to]])))).toEqual([]);
  });

  it('marks only the configuration module @Global(): every other module imports what it uses', () => {
    const global = files.filter((f) => /^@Global\(\)/m.test(text.get(f)!)).map(name);
    expect(global).toEqual(['src/config/config.module.ts']);
  });
});
