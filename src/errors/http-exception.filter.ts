import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { DomainError } from '../domain/domain-error';
import { MCP_PATH } from './mcp-path';
import { HTTP_STATUS_OF } from './error-codes';
import { JsonRpcErrorCode, jsonRpcAnswerOf, jsonRpcError } from './json-rpc-errors';
import { toDomainError } from './to-domain-error';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
  /** On a 503 at the request deadline, whether the write may still be applied (P123). */
  writeMayHaveApplied?: boolean;
}

export function errorBody(error: DomainError): ErrorBody {
  const body: ErrorBody = { statusCode: HTTP_STATUS_OF[error.code], error: error.code, message: error.message };
  if (error.field) body.field = error.field;
  if (error.writeMayHaveApplied !== undefined) body.writeMayHaveApplied = error.writeMayHaveApplied;
  return body;
}

/** The single place an error becomes an HTTP answer (REST, and /mcp's JSON-RPC face); GraphQL uses the same mapping. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType() !== 'http') throw exception; // GraphQL formats its own errors
    const http = host.switchToHttp();
    const reply = http.getResponse<{ status(code: number): { send(body: unknown): void } }>();
    // What stops a /mcp request before the SDK transport reads it (a body too large, not
    // JSON, not UTF-8) is a JSON-RPC error there too, so an MCP client shows its message (P136).
    const forMcp = http.getRequest<{ routeOptions?: { url?: string } }>().routeOptions?.url === MCP_PATH;
    const domain = toDomainError(exception);
    if (!domain) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
      const body = forMcp
        ? jsonRpcError(JsonRpcErrorCode.INTERNAL_ERROR, 'internal error')
        : { statusCode: 500, error: 'INTERNAL', message: 'internal error' };
      return reply.status(500).send(body);
    }
    if (forMcp) {
      const { status, body } = jsonRpcAnswerOf(domain);
      return reply.status(status).send(body);
    }
    return reply.status(HTTP_STATUS_OF[domain.code]).send(errorBody(domain));
  }
}
