import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NoDeprecatedCustomRule, buildSchema, parse, specifiedRules, validate } from 'graphql';
import * as queries from '../../console/src/queries';

const ROOT = join(__dirname, '..', '..');
const GENERATOR = join(ROOT, 'scripts', 'generate-console-types.mjs');

/** Every operation the console sends (console/src/graphql/operations.graphql) is valid against schema.gql, without deprecated fields (P170). */
describe('the operator console operations', () => {
  const schema = buildSchema(readFileSync(join(ROOT, 'schema.gql'), 'utf8'));
  const operations = Object.entries(queries).map(([name, document]) => [name, String(document)] as const);

  it('are all there, each a generated document of one named operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(21);
    for (const [, text] of operations) expect(text).toMatch(/^\s*(query|mutation|subscription) Console\w+/);
  });

  it.each(operations)('%s validates against schema.gql', (_name, text) => {
    expect(validate(schema, parse(text), [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message)).toEqual([]);
  });
});

/** The console's types come from the schema (P267): an operation asking for a field the schema lacks is not generated. */
describe('the console types generator', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-types-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const generate = (operations: string) => {
    const document = join(dir, 'operations.graphql');
    writeFileSync(document, operations);
    return spawnSync(process.execPath, [GENERATOR, join(dir, 'generated.ts'), document], { encoding: 'utf8' });
  };

  it('refuses a field the schema lacks, naming the field, the type and where it was asked for', () => {
    const run = generate('query ConsoleMadeUp { viewer { name favouriteColour } }\n');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Cannot query field "favouriteColour" on type "Viewer"');
    expect(run.stderr).toMatch(/operations\.graphql:1:\d+/);
  });

  it('types what was asked for, no more', () => {
    const run = generate('query ConsoleViewerName { viewer { name } }\n');
    expect(run.status).toBe(0);
    const text = readFileSync(join(dir, 'generated.ts'), 'utf8');
    expect(text).toContain('export type ConsoleViewerNameQuery = { viewer: { name: string } };');
    expect(text).toContain('export const ConsoleViewerNameDocument = new TypedDocumentString(');
  });

  it('the committed types are what it makes of the committed operations (artifacts:check holds it too)', () => {
    execFileSync(process.execPath, [GENERATOR, join(dir, 'committed.ts')], { stdio: 'ignore' });
    expect(readFileSync(join(dir, 'committed.ts'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'console', 'src', 'graphql', 'generated.ts'), 'utf8'),
    );
  });
});
