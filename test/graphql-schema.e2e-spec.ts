import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { buildAppSchema, printSchemaFile } from '../scripts/generate-schema';
import { TestApp, createTestApp } from './support/test-app';

const SCHEMA_FILE = join(__dirname, '..', 'schema.gql');
const HINT = 'schema.gql is out of date: run `npm run schema:generate` and commit the result';

/** A readable failure: the first line that differs, with a little context, and what to do. */
function expectSameSchema(actual: string, committed: string, what: string): void {
  if (actual === committed) return;
  const a = actual.split('\n');
  const c = committed.split('\n');
  let line = 0;
  while (line < Math.max(a.length, c.length) && a[line] === c[line]) line++;
  const around = (lines: string[]) => lines.slice(Math.max(0, line - 3), line + 4).join('\n');
  throw new Error(`${HINT}\n${what} differs from schema.gql at line ${line + 1}.\n--- schema.gql\n${around(c)}\n--- ${what}\n${around(a)}`);
}

describe('schema.gql (code-first schema, committed)', () => {
  let t: TestApp;
  let committed: string;

  beforeAll(async () => {
    committed = readFileSync(SCHEMA_FILE, 'utf8');
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is exactly the schema the running app serves', () => {
    const served = printSchemaFile(t.app.get(GraphQLSchemaHost).schema);
    expectSameSchema(served, committed, 'the schema the app serves');
  });

  it('is what the generator writes (so running it fixes a failure above)', async () => {
    expectSameSchema(printSchemaFile(await buildAppSchema()), committed, "the generator's output");
  });

  it('carries every operation of the admin API', () => {
    for (const name of ['toolHealths(', 'effectiveHealth(', 'pinToolHealth(', 'purgeToolHealth(', 'toolHealthChanged(']) {
      expect(committed).toContain(name);
    }
  });
});
