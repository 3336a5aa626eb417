import type { ApolloServerPlugin } from '@apollo/server';
import {
  ASTVisitor,
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLError,
  GraphQLFormattedError,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationContext,
} from 'graphql';
import { Principal, holdsRole } from '../auth/principal';
import { Role } from '../domain/role';

export interface QueryLimits {
  /** Deepest field nesting allowed (the root fields are depth 1). */
  maxDepth: number;
  /**
   * Deepest nesting below `__schema` / `__type`: the standard introspection query (GraphiQL's)
   * is 15 levels deep (TypeRef's `ofType` chain), bounded by the schema, not by the client.
   */
  maxIntrospectionDepth: number;
  /** Field selections allowed in one operation, fragments expanded, `__` fields included (P61). */
  maxFields: number;
  /** Aliased fields allowed in one operation, fragments expanded (P61). */
  maxAliases: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 10, maxIntrospectionDepth: 16, maxFields: 400, maxAliases: 50 };

/**
 * Tokens one GraphQL document may have (graphql's `parse` `maxTokens`, for Apollo and
 * graphql-ws) (P61). The standard introspection query has ~700; a 400-field operation with arguments
 * fits. A document of 200 000 `__typename` aliases stops at the parser, before validation.
 */
export const MAX_QUERY_TOKENS = 10_000;

interface Measure {
  depth: number;
  introspectionDepth: number;
  fields: number;
  aliases: number;
}

const isIntrospectionRoot = (name: string): boolean => name === '__schema' || name === '__type';

/**
 * A validation rule bounding depth and size of every operation before it executes (OWASP API4:
 * unrestricted resource consumption). Every field counts, `__` ones too (P61): 1 000 aliases of
 * `__schema` were 30 MB of answer. Fragments are expanded; a fragment cycle is left to graphql's
 * own NoFragmentCycles rule and simply not followed here.
 */
export function queryLimitsRule(limits: QueryLimits = DEFAULT_QUERY_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const over = (total: Measure) =>
      total.fields > limits.maxFields ||
      total.depth > limits.maxDepth ||
      total.introspectionDepth > limits.maxIntrospectionDepth ||
      total.aliases > limits.maxAliases;

    // `introspection`: the depth inside a __schema/__type subtree (0 outside one).
    const measure = (set: SelectionSetNode, depth: number, introspection: number, visiting: Set<string>, total: Measure): void => {
      for (const selection of set.selections) {
        if (over(total)) return;
        if (selection.kind === Kind.FIELD) {
          total.fields++;
          if (selection.alias) total.aliases++;
          const inside = introspection > 0 ? introspection + 1 : isIntrospectionRoot(selection.name.value) ? 1 : 0;
          if (inside > 0) total.introspectionDepth = Math.max(total.introspectionDepth, inside);
          else total.depth = Math.max(total.depth, depth);
          if (selection.selectionSet) measure(selection.selectionSet, depth + 1, inside, visiting, total);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          measure(selection.selectionSet, depth, introspection, visiting, total);
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || visiting.has(name)) continue;
          visiting.add(name);
          measure(fragment.selectionSet, depth, introspection, visiting, total);
          visiting.delete(name);
        }
      }
    };

    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        const total: Measure = { depth: 0, introspectionDepth: 0, fields: 0, aliases: 0 };
        measure(operation.selectionSet, 1, 0, new Set(), total);
        if (total.depth > limits.maxDepth) {
          context.reportError(new GraphQLError(`query is too deep: the limit is ${limits.maxDepth} levels`, { nodes: [operation] }));
        } else if (total.introspectionDepth > limits.maxIntrospectionDepth) {
          context.reportError(
            new GraphQLError(`introspection is too deep: the limit is ${limits.maxIntrospectionDepth} levels`, { nodes: [operation] }),
          );
        } else if (total.fields > limits.maxFields) {
          context.reportError(new GraphQLError(`query is too large: the limit is ${limits.maxFields} fields`, { nodes: [operation] }));
        } else if (total.aliases > limits.maxAliases) {
          context.reportError(new GraphQLError(`query has too many aliases: the limit is ${limits.maxAliases}`, { nodes: [operation] }));
        }
      },
    };
  };
}

/** The roles that may use the GraphQL API at all (admin always may); dispatcher and writer keys may not (D17). */
export const GRAPHQL_ROLES: readonly Role[] = [Role.AUDIT_READER];

/** True when the document selects `__schema` or `__type` anywhere (`__typename` is not introspection of the schema). */
export function usesSchemaIntrospection(document: DocumentNode): boolean {
  const walk = (set: SelectionSetNode | undefined): boolean =>
    !!set &&
    set.selections.some((s) =>
      s.kind === Kind.FIELD
        ? isIntrospectionRoot(s.name.value) || walk(s.selectionSet)
        : s.kind === Kind.INLINE_FRAGMENT
          ? walk(s.selectionSet)
          : false,
    );
  return document.definitions.some(
    (d) => (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) && walk(d.selectionSet),
  );
}

/**
 * Introspection (`__schema`, `__type`) only for keys that may use GraphQL (D17); a
 * dispatcher or writer key gets 403 FORBIDDEN before anything runs (P62). The principal is the one
 * the HTTP key check (graphql-http-auth.ts) put on the request. Where introspection is off
 * (production), Apollo's own rule refuses it for everybody first.
 */
export function introspectionAccessPlugin(roles: readonly Role[] = GRAPHQL_ROLES): ApolloServerPlugin<Record<string, unknown>> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, contextValue }) {
          if (!usesSchemaIntrospection(document)) return;
          const ctx = contextValue as { req?: { principal?: Principal }; principal?: Principal };
          const principal = ctx.req?.principal ?? ctx.principal;
          if (principal && roles.some((role) => holdsRole(principal, role))) return;
          throw new GraphQLError(`introspection needs one of: ${[Role.ADMIN, ...roles].join(', ')}`, {
            extensions: { code: 'FORBIDDEN', http: { status: 403 } },
          });
        },
      };
    },
  };
}

/**
 * With introspection off, graphql's "Did you mean …?" hints would still spell out the
 * schema's field, type and argument names to anyone probing; strip them (P62).
 */
export function withoutSuggestions(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const message = formatted.message.replace(/ Did you mean [^?]*\?/g, '');
  return message === formatted.message ? formatted : { ...formatted, message };
}
