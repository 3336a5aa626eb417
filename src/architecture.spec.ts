import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The wiring stays visible (P107): a module imports the modules whose providers it injects, so
 * only configuration is global; and no source file reaches itself through its own imports.
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

  it('marks only the configuration module @Global(): every other module imports what it uses', () => {
    const global = files.filter((f) => /^@Global\(\)/m.test(text.get(f)!)).map(name);
    expect(global).toEqual(['src/config/config.module.ts']);
  });
});
