import { HttpException } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

// Driver (mongodb 6.20) and mongoose errors that mean "the database cannot be reached now":
// each is a 503, never a 500. Matched by `name`, which the driver defines per class.
const DB_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError', // in-flight operations when the client is closed (ConnectionWatchdog)
  'MongoServerClosedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoPoolClosedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
  'MongooseServerSelectionError',
]);

// Raw socket errors: the driver (6.20) rejects a write that waits for 'drain' with the socket's own
// error, unwrapped (e.g. EPIPE "This socket has been ended by the other party" when the database
// drops the connection mid-write; seen in test/db-faults.e2e-spec.ts). A request handler does no
// network I/O but the database's, so these are the database going away.
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'ERR_SOCKET_CLOSED',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
]);

export const DATABASE_UNAVAILABLE_MESSAGE = 'the database is unavailable; retry shortly';

/** True for an error that means the database is unreachable right now (a 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return (typeof name === 'string' && DB_UNAVAILABLE.has(name)) || (typeof code === 'string' && SOCKET_ERROR_CODES.has(code));
}

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
    // P63: a too-large body is a 413 and a body that is not JSON a 415, each naming its field.
    if (e.statusCode === 413) return new DomainError(DomainErrorCode.PAYLOAD_TOO_LARGE, 'body: request body is too large', 'body');
    if (e.statusCode === 415) return new DomainError(DomainErrorCode.UNSUPPORTED_MEDIA_TYPE, 'content-type: must be application/json', 'content-type');
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
    // P66: a tool name with a raw `/` splits the path into more segments than the route has.
    const hint = /^Cannot \w+ \/v1\/tools\//.test(message) ? '; a tool name containing / must be percent-encoded in the path (%2F)' : '';
    return new DomainError(DomainErrorCode.NOT_FOUND, `${message}${hint}`);
  }
  if (status === 409) return new DomainError(DomainErrorCode.CONFLICT, message);
  if (status === 503) return new DomainError(DomainErrorCode.UNAVAILABLE, message);
  // Fastify's body refusals reach the filter as HttpExceptions (P63).
  if (status === 413) return new DomainError(DomainErrorCode.PAYLOAD_TOO_LARGE, 'body: request body is too large', 'body');
  if (status === 415) return new DomainError(DomainErrorCode.UNSUPPORTED_MEDIA_TYPE, 'content-type: must be application/json', 'content-type');
  return new DomainError(DomainErrorCode.INVALID_ARGUMENT, message);
}
