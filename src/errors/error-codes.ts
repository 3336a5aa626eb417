import { DomainErrorCode } from '../domain/domain-error';

/** The one mapping of domain error codes; `satisfies Record<…>` makes a new code a compile error. */
export const HTTP_STATUS_OF = {
  [DomainErrorCode.INVALID_ARGUMENT]: 400,
  [DomainErrorCode.UNAUTHENTICATED]: 401,
  [DomainErrorCode.FORBIDDEN]: 403,
  [DomainErrorCode.NOT_FOUND]: 404,
  [DomainErrorCode.CONFLICT]: 409,
  [DomainErrorCode.UNAVAILABLE]: 503,
  [DomainErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [DomainErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [DomainErrorCode.IDEMPOTENCY_KEY_MISMATCH]: 422,
  [DomainErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT]: 409,
  [DomainErrorCode.IDEMPOTENCY_KEY_LIMIT]: 429,
  [DomainErrorCode.METHOD_NOT_ALLOWED]: 405,
} as const satisfies Record<DomainErrorCode, number>;

export const GRAPHQL_CODE_OF = {
  [DomainErrorCode.INVALID_ARGUMENT]: 'BAD_USER_INPUT',
  [DomainErrorCode.UNAUTHENTICATED]: 'UNAUTHENTICATED',
  [DomainErrorCode.FORBIDDEN]: 'FORBIDDEN',
  [DomainErrorCode.NOT_FOUND]: 'NOT_FOUND',
  [DomainErrorCode.CONFLICT]: 'CONFLICT',
  [DomainErrorCode.UNAVAILABLE]: 'SERVICE_UNAVAILABLE',
  [DomainErrorCode.PAYLOAD_TOO_LARGE]: 'BAD_USER_INPUT',
  [DomainErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'BAD_USER_INPUT',
  [DomainErrorCode.IDEMPOTENCY_KEY_MISMATCH]: 'IDEMPOTENCY_KEY_MISMATCH',
  [DomainErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT]: 'IDEMPOTENCY_KEY_IN_FLIGHT',
  [DomainErrorCode.IDEMPOTENCY_KEY_LIMIT]: 'IDEMPOTENCY_KEY_LIMIT',
  [DomainErrorCode.METHOD_NOT_ALLOWED]: 'BAD_USER_INPUT',
} as const satisfies Record<DomainErrorCode, string>;
