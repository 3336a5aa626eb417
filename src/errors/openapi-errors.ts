import { applyDecorators } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DomainErrorCode } from '../domain/domain-error';
import { IDEMPOTENT_OPERATIONS } from './idempotent-operations';
import { HTTP_STATUS_OF } from './error-codes';

const ERROR_BODY = 'ErrorBody';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

const {
  INVALID_ARGUMENT,
  UNAUTHENTICATED,
  FORBIDDEN,
  NOT_FOUND,
  CONFLICT,
  UNAVAILABLE,
  PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE,
  IDEMPOTENCY_KEY_MISMATCH,
  IDEMPOTENCY_KEY_IN_FLIGHT,
  IDEMPOTENCY_KEY_LIMIT,
  METHOD_NOT_ALLOWED,
} = DomainErrorCode;

/**
 * The one place that says which error answers each REST operation can give (P82). The OpenAPI
 * document is built from it and test/contract-openapi.e2e-spec.ts checks the served document
 * against it. A code is listed for an operation only when it is reachable there:
 * - INVALID_ARGUMENT (400): the operation takes a body, a query or a path parameter (every POST
 *   and PUT: a malformed, oversized or non-JSON body is a 400 too);
 * - UNAUTHENTICATED (401) and FORBIDDEN (403): the operation needs an API key, and every such
 *   operation is restricted to some roles;
 * - NOT_FOUND (404): the operation answers about one existing thing and says so when it is
 *   missing (an entry, a cooldown, an Agrajag tool by name, a webhook endpoint or delivery); lookups
 *   answer OK by default instead;
 * - CONFLICT (409): the operation writes a tool-health entry (optimistic writes that lost too many
 *   races, or an entry already holding the most cooldowns it can), or changes a maintenance window
 *   whose phase forbids the change (a cancelled window, the start of one in force), or changes a
 *   webhook endpoint that other writes kept changing under it (P180);
 * - UNAVAILABLE (503): every operation (the database is away, or the service is shutting down);
 * - PAYLOAD_TOO_LARGE (413) and UNSUPPORTED_MEDIA_TYPE (415): added to every operation that takes
 *   a body (P63: the body parser refuses a body over the limit, or one that is not UTF-8 JSON).
 * Key it by the operationId given with @ApiContract; an operation missing here fails the contract test.
 */
export const OPERATION_ERRORS = {
  checkLiveness: [UNAVAILABLE],
  checkReadiness: [UNAVAILABLE],
  markToolUnavailable: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  markToolIntermittent: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  markToolAvailable: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  markToolsUnavailable: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  markToolsIntermittent: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  markToolsAvailable: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  reportClientDisconnected: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  reportClientReconnected: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  getHealthEntry: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  lookupAvailability: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  lookupAvailabilityBatch: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  getToolStats: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  getToolUptime: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  getTenantSettings: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  setTenantHistoryLimit: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  reportSuccess: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  reportFailure: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  reportOutcomes: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  setCooldown: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  changeCooldownWindow: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  clearCooldown: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  sweepCooldowns: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  listToolsDueForProbe: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  recordDiagnosis: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, CONFLICT, UNAVAILABLE],
  listAgrajagTools: [UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  invokeAgrajagTool: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  readEvents: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  annotateManifest: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  annotateManifestChanges: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  explainTool: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  scrapeMetrics: [UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  scheduleMaintenance: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  listMaintenanceWindows: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  changeMaintenance: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  cancelMaintenance: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  skipMaintenanceOccurrence: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  changeMaintenanceOccurrence: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  endMaintenanceSeries: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  maintenanceCalendar: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  createCalendarFeedToken: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  listCalendarFeedTokens: [UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  revokeCalendarFeedToken: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  createWebhookEndpoint: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  listWebhookEndpoints: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE],
  getWebhookEndpoint: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  changeWebhookEndpoint: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  deleteWebhookEndpoint: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  rotateWebhookSecret: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE],
  pingWebhookEndpoint: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  listWebhookDeliveries: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  resendWebhookDelivery: [INVALID_ARGUMENT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
} as const satisfies Record<string, readonly DomainErrorCode[]>;

export type OperationId = keyof typeof OPERATION_ERRORS;

/** operationId, summary and description of one REST operation; the id keys OPERATION_ERRORS. */
export function ApiContract(operationId: OperationId, summary: string, description: string): MethodDecorator {
  return applyDecorators(ApiOperation({ operationId, summary, description }));
}

const DESCRIPTION: Record<DomainErrorCode, string> = {
  [INVALID_ARGUMENT]: 'Invalid input: the message and `field` name the field. Nothing was written.',
  [UNAUTHENTICATED]: 'No API key, or an unknown one (header x-api-key).',
  [FORBIDDEN]: "The key's roles do not allow this operation.",
  [NOT_FOUND]: 'Nothing is stored under that key, or there is no such resource.',
  [CONFLICT]: 'Too many concurrent writes to one entry, or the entry holds the most cooldowns it can; retry.',
  [UNAVAILABLE]: 'The database is unavailable or the service is shutting down; retry shortly.',
  [PAYLOAD_TOO_LARGE]: 'The request body is larger than the limit (BODY_LIMIT_BYTES).',
  [UNSUPPORTED_MEDIA_TYPE]: 'The body is not `application/json` in UTF-8.',
  [IDEMPOTENCY_KEY_MISMATCH]: 'The Idempotency-Key was used before with another request (body, route or key); nothing was written.',
  [IDEMPOTENCY_KEY_IN_FLIGHT]: 'The first request with this Idempotency-Key is still being answered; retry shortly with the same key.',
  [IDEMPOTENCY_KEY_LIMIT]:
    'This API key holds as many live Idempotency-Keys as allowed (IDEMPOTENCY_KEYS_PER_CALLER); nothing was written.',
  [METHOD_NOT_ALLOWED]: 'The path exists, but not for this method (the `Allow` header lists its methods).',
};

/** One realistic answer per code, as the service sends it. */
const EXAMPLE: Record<DomainErrorCode, { statusCode: number; error: DomainErrorCode; message: string; field?: string }> = {
  [INVALID_ARGUMENT]: { statusCode: 400, error: INVALID_ARGUMENT, message: 'scopeId: must be null for GLOBAL', field: 'scopeId' },
  [UNAUTHENTICATED]: { statusCode: 401, error: UNAUTHENTICATED, message: 'an API key is required (header x-api-key)' },
  [FORBIDDEN]: {
    statusCode: 403,
    error: FORBIDDEN,
    message: 'key "reader" lacks a role for this operation (needs one of: dispatcher, admin)',
  },
  [NOT_FOUND]: { statusCode: 404, error: NOT_FOUND, message: 'no health entry for PROJECT p-1 jira_search' },
  [CONFLICT]: { statusCode: 409, error: CONFLICT, message: 'too many concurrent writes to PROJECT:p-1:jira_search; retry' },
  [UNAVAILABLE]: { statusCode: 503, error: UNAVAILABLE, message: 'the database is unavailable; retry shortly' },
  [PAYLOAD_TOO_LARGE]: { statusCode: 413, error: PAYLOAD_TOO_LARGE, message: 'body: request body is too large', field: 'body' },
  [UNSUPPORTED_MEDIA_TYPE]: {
    statusCode: 415,
    error: UNSUPPORTED_MEDIA_TYPE,
    message: 'content-type: must be application/json',
    field: 'content-type',
  },
  [IDEMPOTENCY_KEY_MISMATCH]: {
    statusCode: 422,
    error: IDEMPOTENCY_KEY_MISMATCH,
    message: 'Idempotency-Key: already used with another request; send a new key for a new request',
    field: 'Idempotency-Key',
  },
  [IDEMPOTENCY_KEY_IN_FLIGHT]: {
    statusCode: 409,
    error: IDEMPOTENCY_KEY_IN_FLIGHT,
    message: 'Idempotency-Key: the first request with this key is still running; retry shortly with the same key',
    field: 'Idempotency-Key',
  },
  [IDEMPOTENCY_KEY_LIMIT]: {
    statusCode: 429,
    error: IDEMPOTENCY_KEY_LIMIT,
    message: 'Idempotency-Key: this API key already holds 10000 live keys; retry without one or once older keys expire',
    field: 'Idempotency-Key',
  },
  [METHOD_NOT_ALLOWED]: {
    statusCode: 405,
    error: METHOD_NOT_ALLOWED,
    message: 'method: TRACE is not allowed on /health/live (Allow: GET)',
    field: 'method',
  },
};

/** Only an operation that takes a body can answer these (P63). */
const BODY_ONLY: readonly DomainErrorCode[] = [PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE];

/** What a write that accepts an Idempotency-Key can answer besides its own errors (D21). */
const KEYED_WRITE: readonly DomainErrorCode[] = [IDEMPOTENCY_KEY_MISMATCH, IDEMPOTENCY_KEY_LIMIT];

/**
 * The error codes an operation documents: its row of OPERATION_ERRORS, plus 413/415 when it takes
 * a body, plus 422/429 (and 409, D21) when it is a write that accepts an Idempotency-Key.
 */
export function documentedErrorCodes(operationId: OperationId, takesBody: boolean): readonly DomainErrorCode[] {
  const own: readonly DomainErrorCode[] = OPERATION_ERRORS[operationId];
  const keyed = (IDEMPOTENT_OPERATIONS as readonly string[]).includes(operationId)
    ? [...KEYED_WRITE, ...(own.includes(CONFLICT) ? [] : [IDEMPOTENCY_KEY_IN_FLIGHT])]
    : [];
  return [...own, ...(takesBody ? BODY_ONLY : []), ...keyed];
}

function isOperationId(id: string | undefined): id is OperationId {
  return id !== undefined && Object.prototype.hasOwnProperty.call(OPERATION_ERRORS, id);
}

/**
 * Adds ErrorBody and, on every operation, one response per error code OPERATION_ERRORS lists for
 * it (with that code's example). An operation's own declaration of a status wins. An operation
 * not listed (a route added without @ApiContract) gets every code, so the document never hides an
 * answer; the contract test then names it. Mutates and returns the document.
 */
export function documentErrorResponses(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_BODY] ??= {
    type: 'object',
    description: 'Every error answer of the REST API.',
    required: ['statusCode', 'error', 'message'],
    properties: {
      statusCode: { type: 'integer', description: 'The HTTP status, repeated.', example: 400 },
      error: {
        type: 'string',
        enum: Object.values(DomainErrorCode),
        description: 'What went wrong, as a stable code.',
        example: INVALID_ARGUMENT,
      },
      message: { type: 'string', description: 'What went wrong, in words.', example: 'scopeId: must be null for GLOBAL' },
      field: { type: 'string', description: 'The request field the error is about, when there is one.', example: 'scopeId' },
      writeMayHaveApplied: {
        type: 'boolean',
        description:
          'Only on a 503 answered at the request deadline: true when the request was a write that may still be applied after this answer. Retry it with the same Idempotency-Key to get its real answer; a retry without a key may apply it twice.',
        example: true,
      },
    },
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const codes = isOperationId(operation.operationId)
        ? documentedErrorCodes(operation.operationId, operation.requestBody !== undefined)
        : Object.values(DomainErrorCode);
      operation.responses ??= {};
      for (const code of codes) {
        const status = String(HTTP_STATUS_OF[code]);
        operation.responses[status] ??= {
          description: DESCRIPTION[code],
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_BODY}` }, example: EXAMPLE[code] } },
        };
      }
    }
  }
  return document;
}
