import { HttpException } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

const DB_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongooseServerSelectionError',
  'PoolClearedError',
  'PoolClearedOnNetworkError',
]);

/**
 * Anything thrown → a DomainError, or null for a genuine bug (which stays a 500 and is logged).
 * Client mistakes caught by Nest/Fastify become INVALID_ARGUMENT and friends; an unreachable
 * database becomes UNAVAILABLE (503) rather than a hang or a 500.
 */
export function toDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof HttpException) return fromHttpException(error);
  const e = error as { name?: string; code?: string; statusCode?: number; message?: string };
  if (e?.name && DB_UNAVAILABLE.has(e.name)) {
    return new DomainError(DomainErrorCode.UNAVAILABLE, 'the database is unavailable; retry shortly');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 && e.code?.startsWith('FST_')) {
    if (e.statusCode === 413) return new DomainError(DomainErrorCode.INVALID_ARGUMENT, 'body: request body is too large', 'body');
    if (e.statusCode === 415) return new DomainError(DomainErrorCode.INVALID_ARGUMENT, 'content-type: must be application/json', 'content-type');
    return new DomainError(DomainErrorCode.INVALID_ARGUMENT, `body: ${e.message ?? 'malformed request'}`, 'body');
  }
  return null;
}

function fromHttpException(error: HttpException): DomainError {
  const status = error.getStatus();
  const message = error.message;
  if (status === 401) return new DomainError(DomainErrorCode.UNAUTHENTICATED, message);
  if (status === 403) return new DomainError(DomainErrorCode.FORBIDDEN, message);
  if (status === 404) return new DomainError(DomainErrorCode.NOT_FOUND, message);
  if (status === 409) return new DomainError(DomainErrorCode.CONFLICT, message);
  if (status === 503) return new DomainError(DomainErrorCode.UNAVAILABLE, message);
  return new DomainError(DomainErrorCode.INVALID_ARGUMENT, message);
}
