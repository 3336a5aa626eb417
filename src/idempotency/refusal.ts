import { DomainError } from '../domain/domain-error';
import { GRAPHQL_CODE_OF, HTTP_STATUS_OF } from '../errors/error-codes';
import { errorBody } from '../errors/http-exception.filter';
import { JSON_RPC_CODE_OF, jsonRpcError } from '../errors/json-rpc-errors';
import { WriteSurface } from './write-requests';

interface Reply<R> {
  code(status: number): R;
  header(name: string, value: string): R;
  send(body: unknown): R;
}

/**
 * A refusal of the Idempotency-Key hook, in the shape each surface's clients read: ErrorBody on
 * REST, a GraphQL response (`errors[0].extensions.code`) on /graphql, a JSON-RPC error on /mcp.
 * The HTTP status is the one mapping's (src/errors/error-codes.ts) everywhere.
 */
export function refusal<R extends Reply<R>>(surface: WriteSurface, reply: R, requestBody: unknown, error: DomainError): R {
  const status = HTTP_STATUS_OF[error.code];
  reply.code(status).header('content-type', 'application/json; charset=utf-8');
  if (surface === WriteSurface.GRAPHQL)
    return reply.send({ errors: [{ message: error.message, extensions: { code: GRAPHQL_CODE_OF[error.code], field: error.field } }] });
  if (surface === WriteSurface.MCP) {
    const id = (requestBody as { id?: string | number | null } | null)?.id ?? null;
    return reply.send(jsonRpcError(JSON_RPC_CODE_OF[error.code], error.message, { code: error.code, field: error.field }, id));
  }
  return reply.send(errorBody(error));
}
