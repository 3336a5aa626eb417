import { HttpException } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../database/database-unavailable';

// Which thrown errors mean "the database is away" is the persistence layer's knowledge (P96).
export { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../database/database-unavailable';

/**
 * Anything thrown → a DomainError, or null for a genuine bug (which stays a 500 and is logged).
 * Client mistakes caught by Nest/Fastify become INVALID_ARGUMENT and friends; an unreachable
 * database becomes UNAVAILABLE (503) rather than a hang or a 500.
 */
export function toDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof HttpException) return fromHttpException(error);
  const e = error as { name?: string; code?: string; statusCode?: number; message?: string };
  if (isDatabaseUnavailable(error)) {
    return new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE);
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 && e.code?.startsWith('FST_')) {
    // A too-large body is a 413 and a body that is not JSON a 415, each naming its field (P63).
    if (e.statusCode === 413) return new DomainError(DomainErrorCode.PAYLOAD_TOO_LARGE, 'body: request body is too large', 'body');
    if (e.statusCode === 415)
      return new DomainError(DomainErrorCode.UNSUPPORTED_MEDIA_TYPE, 'content-type: must be application/json', 'content-type');
    return new DomainError(DomainErrorCode.INVALID_ARGUMENT, `body: ${e.message ?? 'malformed request'}`, 'body');
  }
  return null;
}

function fromHttpException(error: HttpException): DomainError {
  const status = error.getStatus();
  const message = error.message;
  if (status === 401) return new DomainError(DomainErrorCode.UNAUTHENTICATED, message);
  if (status === 403) return new DomainError(DomainErrorCode.FORBIDDEN, message);
  if (status === 404) {
    // A tool name with a raw `/` splits the path into more segments than the route has (P66).
    const hint = /^Cannot \w+ \/v1\/tools\//.test(message) ? '; a tool name containing / must be percent-encoded in the path (%2F)' : '';
    return new DomainError(DomainErrorCode.NOT_FOUND, `${message}${hint}`);
  }
  if (status === 409) return new DomainError(DomainErrorCode.CONFLICT, message);
  if (status === 503) return new DomainError(DomainErrorCode.UNAVAILABLE, message);
  // Fastify's body refusals reach the filter as HttpExceptions (P63).
  if (status === 413) return new DomainError(DomainErrorCode.PAYLOAD_TOO_LARGE, 'body: request body is too large', 'body');
  if (status === 415)
    return new DomainError(DomainErrorCode.UNSUPPORTED_MEDIA_TYPE, 'content-type: must be application/json', 'content-type');
  return new DomainError(DomainErrorCode.INVALID_ARGUMENT, message);
}
