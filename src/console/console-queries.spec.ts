import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NoDeprecatedCustomRule, buildSchema, parse, specifiedRules, validate } from 'graphql';
import * as queries from '../../console/src/queries';

/** Every operation the console sends (console/src/queries.ts) is valid against schema.gql, without deprecated fields (P170). */
describe('the operator console operations', () => {
  const schema = buildSchema(readFileSync(join(__dirname, '..', '..', 'schema.gql'), 'utf8'));
  const operations = Object.entries(queries).filter(([, text]) => /^\s*(query|mutation|subscription)\b/.test(text));

  it('are all there', () => {
    expect(operations.length).toBeGreaterThanOrEqual(15);
  });

  it.each(operations)('%s validates against schema.gql', (_name, text) => {
    expect(validate(schema, parse(text), [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message)).toEqual([]);
  });
});
