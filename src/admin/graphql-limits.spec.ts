import { buildSchema, parse, validate } from 'graphql';
import { queryLimitsRule } from './graphql-limits';

const schema = buildSchema(`
  type Node { id: ID, child: Node, a: Int, b: Int, c: Int }
  type Query { node: Node }
`);

function errorsOf(query: string, maxDepth = 3, maxFields = 6): string[] {
  return validate(schema, parse(query), [queryLimitsRule({ maxDepth, maxFields })]).map((e) => e.message);
}

describe('queryLimitsRule', () => {
  it('accepts an operation within both limits', () => {
    expect(errorsOf('{ node { child { id } } }')).toEqual([]);
  });

  it('refuses one level too deep', () => {
    expect(errorsOf('{ node { child { child { id } } } }')).toEqual(['query is too deep: the limit is 3 levels']);
  });

  it('counts depth through fragments and inline fragments', () => {
    const query = 'query { node { ...F } } fragment F on Node { child { ... on Node { child { id } } } }';
    expect(errorsOf(query)).toEqual(['query is too deep: the limit is 3 levels']);
  });

  it('refuses too many fields, fragments expanded each time they are spread', () => {
    const query = 'query { node { ...F child { ...F } } } fragment F on Node { a b c }';
    expect(errorsOf(query, 5, 6)).toEqual(['query is too large: the limit is 6 fields']);
    expect(errorsOf('{ node { a b c } }', 5, 6)).toEqual([]);
  });

  it('leaves introspection to its own switch', () => {
    expect(errorsOf('{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }', 3, 6)).toEqual([]);
    expect(errorsOf('{ __typename node { child { child { id } } } }')).toEqual(['query is too deep: the limit is 3 levels']);
  });

  it('does not loop on a fragment cycle (graphql reports the cycle itself)', () => {
    const query = 'query { node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { ...A } }';
    expect(() => errorsOf(query, 50, 500)).not.toThrow();
  });
});
