import {
  ASTVisitor,
  FragmentDefinitionNode,
  GraphQLError,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationContext,
} from 'graphql';

export interface QueryLimits {
  /** Deepest field nesting allowed (the root fields are depth 1). */
  maxDepth: number;
  /** Field selections allowed in one operation, fragments expanded: a cheap complexity bound. */
  maxFields: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 10, maxFields: 400 };

interface Measure {
  depth: number;
  fields: number;
}

/**
 * A validation rule bounding depth and size of every operation before it executes (OWASP API4:
 * unrestricted resource consumption). Fragments are expanded; a fragment cycle is left to
 * graphql's own NoFragmentCycles rule and simply not followed here.
 */
export function queryLimitsRule(limits: QueryLimits = DEFAULT_QUERY_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }

    const measure = (set: SelectionSetNode, depth: number, visiting: Set<string>, total: Measure): void => {
      for (const selection of set.selections) {
        if (total.fields > limits.maxFields || total.depth > limits.maxDepth) return;
        if (selection.kind === Kind.FIELD) {
          // Introspection has its own switch (INTROSPECTION_ENABLED) and a fixed, deep shape
          // (TypeRef nests ~8 levels): GraphiQL's schema query must not trip the limit.
          if (selection.name.value.startsWith('__')) continue;
          total.fields++;
          total.depth = Math.max(total.depth, depth);
          if (selection.selectionSet) measure(selection.selectionSet, depth + 1, visiting, total);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          measure(selection.selectionSet, depth, visiting, total);
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || visiting.has(name)) continue;
          visiting.add(name);
          measure(fragment.selectionSet, depth, visiting, total);
          visiting.delete(name);
        }
      }
    };

    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        const total: Measure = { depth: 0, fields: 0 };
        measure(operation.selectionSet, 1, new Set(), total);
        if (total.depth > limits.maxDepth) {
          context.reportError(new GraphQLError(`query is too deep: the limit is ${limits.maxDepth} levels`, { nodes: [operation] }));
        } else if (total.fields > limits.maxFields) {
          context.reportError(new GraphQLError(`query is too large: the limit is ${limits.maxFields} fields`, { nodes: [operation] }));
        }
      },
    };
  };
}
