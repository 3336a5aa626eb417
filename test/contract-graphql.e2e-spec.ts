import { GraphQLSchemaHost } from '@nestjs/graphql';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType } from 'graphql';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 14 / P87–P88: the admin GraphQL API as a contract: every type, field, argument and input
 * field described in a user's words (no internal rule ids), Relay-complete PageInfo, and
 * consistent mutation names with the old name kept only as a deprecated alias.
 */
describe('GraphQL contract', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };

  it('describes every type, field, argument and input field, without internal rule ids', () => {
    const schema = t.app.get(GraphQLSchemaHost).schema;
    // Nest's code-first builder gives the root operation types no description option.
    const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name, schema.getSubscriptionType()?.name]);
    const missing: string[] = [];
    const internal: string[] = [];
    const check = (where: string, description: string | null | undefined) => {
      if (!description?.trim()) missing.push(where);
      else if (/\b[DP]\d+[a-z]?\b|§/.test(description)) internal.push(`${where}: ${description}`);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || (isScalarType(type) && ['String', 'Boolean', 'Int', 'Float', 'ID'].includes(type.name))) continue;
      if (!roots.has(type.name)) check(type.name, type.description);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          check(`${type.name}.${field.name}`, field.description);
          for (const arg of 'args' in field ? field.args : []) check(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      }
      if (isEnumType(type))
        for (const value of type.getValues()) if (value.description) check(`${type.name}.${value.name}`, value.description);
    }
    expect({ missing, internal }).toEqual({ missing: [], internal: [] });
  });

  it('names mutations verb + object, keeping the former names only as deprecated aliases', () => {
    const mutation = t.app.get(GraphQLSchemaHost).schema.getMutationType()!.getFields();
    const renamed = {
      runSweep: 'sweepCooldowns',
      markUnavailable: 'markToolUnavailable',
      markIntermittent: 'markToolIntermittent',
      markAvailable: 'markToolAvailable',
    };
    for (const [old, name] of Object.entries(renamed)) {
      expect({ name, deprecated: mutation[name].deprecationReason }).toEqual({ name, deprecated: undefined });
      expect({ old, deprecated: mutation[old].deprecationReason }).toEqual({ old, deprecated: `Use ${name}.` });
      expect(String(mutation[old].type)).toBe(String(mutation[name].type));
    }
    const current = Object.values(mutation)
      .filter((f) => !f.deprecationReason)
      .map((f) => f.name);
    for (const name of current)
      expect({
        name,
        ok: /^(mark|set|clear|change|sweep|record|pin|unpin|delete|purge|schedule|cancel|create|rotate|revoke|ping|resend|skip|end)[A-Z]/.test(
          name,
        ),
      }).toEqual({
        name,
        ok: true,
      });
    expect(mutation.changeCooldownWindow).toBeDefined();
  });

  it('answers Relay PageInfo: hasPreviousPage and startCursor besides hasNextPage and endCursor', async () => {
    await t.reset();
    for (const toolName of ['a_tool', 'b_tool', 'c_tool']) {
      await gql('mutation($i: MarkUnavailableInput!) { markToolUnavailable(input: $i) { id } }', {
        i: { scope: 'GLOBAL', toolName, code: 'BACKEND_FAILED' },
      });
    }
    const LIST =
      'query($after: String) { toolHealths(first: 2, after: $after) { edges { cursor node { toolName } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
    const first = (await gql(LIST)).toolHealths;
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const second = (await gql(LIST, { after: first.pageInfo.endCursor })).toolHealths;
    expect(second.edges).toHaveLength(1);
    expect(second.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: second.edges[0].cursor,
      endCursor: second.edges[0].cursor,
    });
    const events = (
      await gql('{ healthEvents(first: 1) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }')
    ).healthEvents;
    expect(events.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: events.edges[0].cursor,
      endCursor: events.edges[0].cursor,
    });
  });
});
