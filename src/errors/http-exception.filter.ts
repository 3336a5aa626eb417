import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { DomainError } from '../domain/domain-error';
import { HTTP_STATUS_OF } from './error-codes';
import { toDomainError } from './to-domain-error';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
  /** P123: on a 503 at the request deadline, whether the write may still be applied. */
  writeMayHaveApplied?: boolean;
}

export function errorBody(error: DomainError): ErrorBody {
  const body: ErrorBody = { statusCode: HTTP_STATUS_OF[error.code], error: error.code, message: error.message };
  if (error.field) body.field = error.field;
  if (error.writeMayHaveApplied !== undefined) body.writeMayHaveApplied = error.writeMayHaveApplied;
  return body;
}

/** The single place an error becomes an HTTP answer (REST); GraphQL uses the same mapping. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType() !== 'http') throw exception; // GraphQL formats its own errors
    const reply = host.switchToHttp().getResponse<{ status(code: number): { send(body: unknown): void } }>();
    const domain = toDomainError(exception);
    if (!domain) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
      return reply.status(500).send({ statusCode: 500, error: 'INTERNAL', message: 'internal error' });
    }
    return reply.status(HTTP_STATUS_OF[domain.code]).send(errorBody(domain));
  }
}
