/**
 * Every failure the service reports on purpose. One filter maps each code to an HTTP status and a
 * GraphQL error code (src/errors), exhaustively: a new code fails the build until it is mapped.
 */
export enum DomainErrorCode {
  INVALID_ARGUMENT = 'INVALID_ARGUMENT',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  UNAVAILABLE = 'UNAVAILABLE',
  /** The request body is larger than the limit (P63). */
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  /** The body is not JSON, or not UTF-8 JSON (P63). */
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  /** The Idempotency-Key was used before with another request (method, route, caller or body) (D21). */
  IDEMPOTENCY_KEY_MISMATCH = 'IDEMPOTENCY_KEY_MISMATCH',
  /** The first request with this Idempotency-Key is still being answered (D21). */
  IDEMPOTENCY_KEY_IN_FLIGHT = 'IDEMPOTENCY_KEY_IN_FLIGHT',
  /** The caller holds as many live Idempotency-Keys as allowed (P122). */
  IDEMPOTENCY_KEY_LIMIT = 'IDEMPOTENCY_KEY_LIMIT',
  /** The path exists, but not for this HTTP method (P144). */
  METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED',
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** The request field the error is about, when there is one (e.g. "scopeId"). */
    readonly field?: string,
    /** On a 503 at the request deadline, whether the request's write may still be applied (P123). */
    readonly writeMayHaveApplied?: boolean,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static invalid(field: string, message: string): DomainError {
    return new DomainError(DomainErrorCode.INVALID_ARGUMENT, `${field}: ${message}`, field);
  }

  static notFound(message: string): DomainError {
    return new DomainError(DomainErrorCode.NOT_FOUND, message);
  }

  static conflict(message: string): DomainError {
    return new DomainError(DomainErrorCode.CONFLICT, message);
  }
}
