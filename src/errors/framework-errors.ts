import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { HTTP_STATUS_OF } from './error-codes';
import { errorBody } from './http-exception.filter';

/**
 * Longest path parameter the router accepts. D3a ids are up to 256 characters, up to three times
 * that when percent-encoded (`/` → `%2F`); Fastify's default of 100 answered a valid 101-character
 * tool name with a 414 of its own (found by the fuzzer). Longer ones get the 400 below.
 */
export const MAX_PATH_PARAM_LENGTH = 1024;

// Structural: only the members of the adapter's Fastify used here (its reply types are generic).
interface FrameworkReply {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- must accept the generic reply of both Fastify copies (see above)
  code(status: number): { send(...args: any[]): unknown };
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a path parameter over the limit, a
 * malformed percent-encoding) answer with the one error body (ErrorBody, 400 INVALID_ARGUMENT
 * naming `path`) instead of Fastify's, so the OpenAPI document's 400 covers them.
 */
export function frameworkErrors(error: { code?: string; message?: string }, _request: unknown, reply: FrameworkReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `path: a path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters`
      : error.code === 'FST_ERR_BAD_URL'
        ? 'path: not a valid URL component (malformed percent-encoding)'
        : `path: ${error.message ?? 'invalid'}`;
  const domain = new DomainError(DomainErrorCode.INVALID_ARGUMENT, message, 'path');
  reply.code(HTTP_STATUS_OF[domain.code]).send(errorBody(domain));
}
