import { GraphQLFormattedError } from 'graphql';
import { GRAPHQL_CODE_OF } from '../errors/error-codes';
import { toDomainError } from '../errors/to-domain-error';

/**
 * The GraphQL side of the one error mapping: a DomainError's code becomes `extensions.code`
 * (BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT); anything else is masked.
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown, exposeDetails: boolean): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  const domain = toDomainError(original);
  const existing = formatted.extensions?.code as string | undefined;
  if (domain) {
    return {
      message: domain.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: GRAPHQL_CODE_OF[domain.code],
        ...(domain.field ? { field: domain.field } : {}),
        ...(domain.writeMayHaveApplied !== undefined ? { writeMayHaveApplied: domain.writeMayHaveApplied } : {}), // P123
      },
    };
  }
  // Apollo's own validation and parse errors are the client's: keep their code and message.
  if (existing && existing !== 'INTERNAL_SERVER_ERROR') {
    return exposeDetails
      ? withoutStacktrace(formatted)
      : { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: existing } };
  }
  return exposeDetails
    ? withoutStacktrace(formatted)
    : { message: 'internal error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** Outside production an error keeps its message and extensions, never a stack trace (P244). */
function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
