import type { ApolloServerPlugin } from '@apollo/server';

/** The request errors that GraphQL over HTTP answers with 200 to a client that accepts only application/json. */
const REQUEST_ERROR_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT']);

/**
 * GraphQL over HTTP says a server SHOULD answer a request error (a document that does not
 * parse or validate, variables that do not coerce) with 200 when the client accepts
 * `application/json` and not `application/graphql-response+json`: such legacy clients read the
 * `errors` of a 200 and may treat a 4xx as a transport failure (P148). Apollo answers 400 whatever the
 * Accept header says. Clients that accept the new media type, or send no Accept, keep the 400;
 * 401/403 (the key, P61/P62) and execution errors are untouched.
 */
export function legacyJsonStatusPlugin(): ApolloServerPlugin<Record<string, unknown>> {
  return {
    async requestDidStart({ request }) {
      const accept = request.http?.headers.get('accept') ?? '';
      if (!accept.includes('application/json') || accept.includes('application/graphql-response+json')) return;
      return {
        async willSendResponse({ response, errors }) {
          if (response.http.status !== 400 || !errors?.length) return;
          if (errors.every((e) => REQUEST_ERROR_CODES.has(String(e.extensions?.code)))) response.http.status = 200;
        },
      };
    },
  };
}
