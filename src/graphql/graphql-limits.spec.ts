import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { queryLimitsRule, usesSchemaIntrospection, withoutSuggestions } from './graphql-limits';

const schema = buildSchema(`
  type Node { id: ID, child: Node, a: Int, b: Int, c: Int }
  type Query { node: Node }
`);

function errorsOf(query: string, maxDepth = 3, maxFields = 6, maxAliases = 3, maxIntrospectionDepth = 16): string[] {
  return validate(schema, parse(query), [queryLimitsRule({ maxDepth, maxFields, maxAliases, maxIntrospectionDepth })]).map(
    (e) => e.message,
  );
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

  it('counts __ fields too (P61): __typename aliases, __schema aliases', () => {
    expect(
      errorsOf('{ a: __typename b: __typename c: __typename d: __typename e: __typename f: __typename g: __typename }', 3, 6, 50),
    ).toEqual(['query is too large: the limit is 6 fields']);
    expect(errorsOf('{ a: __typename b: __typename c: __typename d: __typename }', 3, 50, 3)).toEqual([
      'query has too many aliases: the limit is 3',
    ]);
    expect(errorsOf('{ a: __schema { types { name } } b: __schema { types { name } } }', 3, 3, 50)).toEqual([
      'query is too large: the limit is 3 fields',
    ]);
    expect(errorsOf('{ __typename node { child { child { id } } } }')).toEqual(['query is too deep: the limit is 3 levels']);
  });

  it('gives introspection its own depth bound, which the standard introspection query fits', () => {
    expect(
      errorsOf(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true }), 10, 400, 50, 16),
    ).toEqual([]);
    expect(errorsOf('{ __schema { types { fields { type { ofType { ofType { name } } } } } } }', 3, 50, 3, 5)).toEqual([
      'introspection is too deep: the limit is 5 levels',
    ]);
  });

  it('usesSchemaIntrospection: __schema and __type anywhere, not __typename', () => {
    expect(usesSchemaIntrospection(parse('{ __typename node { id } }'))).toBe(false);
    expect(usesSchemaIntrospection(parse('{ node { ... on Node { __type(name: "Node") { name } } } }'))).toBe(true);
    expect(usesSchemaIntrospection(parse('{ ...F } fragment F on Query { x: __schema { queryType { name } } }'))).toBe(true);
  });

  it('withoutSuggestions strips "Did you mean …?" and keeps the rest', () => {
    const message =
      'Cannot query field "pinToolHealt" on type "Mutation". Did you mean "pinToolHealth", "unpinToolHealth", or "purgeToolHealth"?';
    expect(withoutSuggestions({ message }).message).toBe('Cannot query field "pinToolHealt" on type "Mutation".');
    expect(withoutSuggestions({ message: 'query is too deep' })).toEqual({ message: 'query is too deep' });
  });

  it('does not loop on a fragment cycle (graphql reports the cycle itself)', () => {
    const query = 'query { node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { ...A } }';
    expect(() => errorsOf(query, 50, 500)).not.toThrow();
  });
});
