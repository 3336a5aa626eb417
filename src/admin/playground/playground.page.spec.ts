import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, OperationTypeNode, buildSchema, parse, validate } from 'graphql';
import { DEFAULT_QUERY } from './playground.page';

describe('the playground default document (P65)', () => {
  const schema = buildSchema(readFileSync(join(__dirname, '..', '..', '..', 'schema.gql'), 'utf8'));

  it('validates against schema.gql and holds a query, a mutation and a subscription', () => {
    const document = parse(DEFAULT_QUERY);
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const kinds = document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.operation] : []));
    expect(kinds).toEqual([OperationTypeNode.QUERY, OperationTypeNode.MUTATION, OperationTypeNode.SUBSCRIPTION]);
  });
});
