import type { OpenAPIObject } from '@nestjs/swagger';
import { DomainErrorCode } from '../domain/domain-error';
import { HTTP_STATUS_OF } from './error-codes';

const ERROR_BODY = 'ErrorBody';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

const DESCRIPTION: Record<DomainErrorCode, string> = {
  [DomainErrorCode.INVALID_ARGUMENT]: 'Invalid input (the message and `field` name the field); nothing was written.',
  [DomainErrorCode.UNAUTHENTICATED]: 'No API key, or an unknown one (header x-api-key).',
  [DomainErrorCode.FORBIDDEN]: "The key's roles do not allow this operation (D17).",
  [DomainErrorCode.NOT_FOUND]: 'Nothing stored under that key, or no such resource.',
  [DomainErrorCode.CONFLICT]: 'Too many concurrent writes to one entry, or an entry is full; retry.',
  [DomainErrorCode.UNAVAILABLE]: 'The database is unavailable or the service is shutting down; retry shortly.',
  [DomainErrorCode.PAYLOAD_TOO_LARGE]: 'The request body is larger than the limit (BODY_LIMIT_BYTES).',
  [DomainErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'The body is not `application/json` in UTF-8.',
};

/** D3a tool names may contain `/`; in a path segment it must be percent-encoded (P66). */
export const TOOL_NAME_IN_PATH = 'The tool name (D3a: [A-Za-z0-9._:@/-]{1,256}), percent-encoded: a `/` in it is sent as `%2F` (e.g. `l%2Fx`).';

/** Only an operation that takes a body can answer these (P63). */
const BODY_ONLY = new Set<DomainErrorCode>([DomainErrorCode.PAYLOAD_TOO_LARGE, DomainErrorCode.UNSUPPORTED_MEDIA_TYPE]);

/**
 * Documents the error answers of the one error mapping (HttpExceptionFilter → ErrorBody) on every
 * operation, so the OpenAPI document lists every status the service can send: each operation may
 * answer 503 (database away; Fastify while closing), and each operation behind an API key also
 * 400, 401, 403, 404 and 409. An operation's own declaration of a status wins. Mutates and
 * returns the document.
 */
export function documentErrorResponses(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_BODY] ??= {
    type: 'object',
    required: ['statusCode', 'error', 'message'],
    properties: {
      statusCode: { type: 'integer', example: 400 },
      error: { type: 'string', enum: Object.values(DomainErrorCode), example: DomainErrorCode.INVALID_ARGUMENT },
      message: { type: 'string', example: 'scopeId: must be null for GLOBAL' },
      field: { type: 'string', description: 'The request field the error is about, when there is one.', example: 'scopeId' },
    },
  };
  const everywhere = [DomainErrorCode.UNAVAILABLE];
  const secured = Object.values(DomainErrorCode);
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const isSecured = (operation.security ?? document.security ?? []).length > 0;
      for (const parameter of (operation.parameters ?? []) as { in?: string; name?: string; description?: string }[]) {
        if (parameter.in === 'path' && parameter.name === 'toolName') parameter.description ??= TOOL_NAME_IN_PATH;
      }
      operation.responses ??= {};
      for (const code of isSecured ? secured : everywhere) {
        if (BODY_ONLY.has(code) && !operation.requestBody) continue;
        const status = String(HTTP_STATUS_OF[code]);
        operation.responses[status] ??= {
          description: DESCRIPTION[code],
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_BODY}` } } },
        };
      }
    }
  }
  return document;
}
