import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { Kind, NoDeprecatedCustomRule, OperationTypeNode, buildSchema, parse, specifiedRules, validate } from 'graphql';
import type { FieldNode, OperationDefinitionNode } from 'graphql';
import { accessHints, DEFAULT_QUERY, playgroundHtml, playgroundScript } from './playground.page';

describe('the playground default document (P65)', () => {
  const schema = buildSchema(readFileSync(join(__dirname, '..', '..', '..', 'schema.gql'), 'utf8'));
  const document = parse(DEFAULT_QUERY);

  it('validates against schema.gql, without deprecated fields, and holds a query, a mutation and a subscription', () => {
    expect(validate(schema, document, [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message)).toEqual([]);
    const kinds = document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.operation] : []));
    expect(kinds).toEqual([OperationTypeNode.QUERY, OperationTypeNode.MUTATION, OperationTypeNode.SUBSCRIPTION]);
  });

  it("selects fields of each event's payload in the subscription", () => {
    const subscription = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.operation === OperationTypeNode.SUBSCRIPTION,
    )!;
    const root = subscription.selectionSet.selections[0] as FieldNode;
    const payload = root.selectionSet!.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === 'payload')!;
    const fragments = payload.selectionSet!.selections.filter((s) => s.kind === Kind.INLINE_FRAGMENT);
    expect(fragments.map((f) => f.typeCondition?.name.value)).toContain('StatusChangedPayload');
  });
});

describe('the playground page and script (P100)', () => {
  it('loads the graphql-ws client before the start script, from this origin only', () => {
    const html = playgroundHtml('graphql-assets/');
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.slice(-2)).toEqual(['graphql-assets/graphql-ws/graphql-ws.min.js', 'graphql-assets/playground.js']);
    expect(html).toContain("script-src 'self'");
  });

  it('says where the key goes and which roles each kind of operation needs', () => {
    const { unauthorized, forbidden } = accessHints();
    for (const hint of [unauthorized, forbidden]) {
      expect(hint).toContain('{"x-api-key": "<key>"}');
      expect(hint).toContain('need a key with one of the roles: admin, audit-reader; mutations: admin.');
    }
    expect(forbidden).toMatch(/^This key lacks the role\./);
  });

  it('is a script that compiles, with the hints, the refused close codes and the default document in it', () => {
    const script = playgroundScript();
    expect(() => new Script(script)).not.toThrow();
    expect(script).toContain(JSON.stringify(accessHints()));
    expect(script).toContain('var REFUSED_CLOSE_CODES = [4401, 4403];');
    expect(script).toContain(JSON.stringify(DEFAULT_QUERY));
  });
});
