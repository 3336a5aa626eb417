import type { ApolloServerPlugin } from '@apollo/server';

/**
 * Something a caller must know about an operation that succeeded — today only a diagnosis
 * whose status was recorded but whose cooldown the full entry refused (D20; REST says it in the
 * `tool-health-cooldown-refused` header) (P150). It travels in the response's `extensions.warnings`,
 * beside the data, over HTTP and over graphql-ws alike.
 */
export interface GraphqlWarning {
  /** A stable code a client can branch on (e.g. COOLDOWN_REFUSED). */
  code: string;
  message: string;
  /** The response path of the field that warned (its alias, when the caller gave one). */
  path: readonly (string | number)[];
}

// Keyed by the operation's context object: one per HTTP request, one per graphql-ws operation.
const WARNINGS = new WeakMap<object, GraphqlWarning[]>();

/** Records a warning on the operation whose context this is. */
export function addGraphqlWarning(context: object, warning: GraphqlWarning): void {
  const list = WARNINGS.get(context);
  if (list) list.push(warning);
  else WARNINGS.set(context, [warning]);
}

/** The result's extensions with the operation's warnings added; undefined when there are none. */
export function extensionsWithWarnings(
  context: unknown,
  extensions: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const warnings = typeof context === 'object' && context !== null ? WARNINGS.get(context) : undefined;
  if (!warnings?.length) return undefined;
  return { ...extensions, warnings };
}

/** Apollo's side (HTTP): the warnings go out with the single result. */
export function graphqlWarningsPlugin(): ApolloServerPlugin<Record<string, unknown>> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const extensions = extensionsWithWarnings(contextValue, response.body.singleResult.extensions);
          if (extensions) response.body.singleResult.extensions = extensions;
        },
      };
    },
  };
}
