import type { OpenAPIObject } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency-key';
import { IDEMPOTENT_OPERATIONS } from '../errors/idempotent-operations';

const METHODS = ['put', 'post', 'delete', 'patch'] as const;

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Makes this write safe to retry (IETF httpapi Idempotency-Key draft). A retry with the same key and the same request ' +
  '(method, path, API key, body) within 24 h gets the first answer again — status, body, content type, plus `Idempotent-Replayed: true` — ' +
  'and changes nothing; the same key with another request is a 422; while the first request is still running a retry waits briefly, ' +
  'then gets a 409. Only answers that may have written are kept: after a 4xx or a failed write the key can be used again. ' +
  `A structured-field string (\`"…"\`, printable ASCII) or a bare token, 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters, e.g. a UUID; ` +
  'anything else is a 400 naming the header.';

/** Adds the Idempotency-Key header to every write operation (D21); mutates and returns the document. */
export function documentIdempotencyKey(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || !(IDEMPOTENT_OPERATIONS as readonly string[]).includes(operation.operationId ?? '')) continue;
      operation.parameters ??= [];
      operation.parameters.push({
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: false,
        description: IDEMPOTENCY_KEY_DESCRIPTION,
        schema: {
          type: 'string',
          // Exactly what parseIdempotencyKey accepts, so generated clients and fuzzers send valid keys;
          // the format tells a fuzzer that a key names one request (fuzz/hooks.py draws fresh ones).
          format: 'idempotency-key',
          pattern: IDEMPOTENCY_KEY_PATTERN,
          minLength: 1,
          maxLength: MAX_IDEMPOTENCY_KEY_LENGTH + 2,
          example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
        },
      });
      const conflict = operation.responses?.['409'] as { description?: string } | undefined;
      if (conflict?.description && !conflict.description.includes(IDEMPOTENCY_KEY_HEADER))
        conflict.description += ` Or (IDEMPOTENCY_KEY_IN_FLIGHT): the first request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry shortly with the same key.`;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^2/.test(status)) continue;
        const r = response as { headers?: Record<string, unknown> };
        r.headers ??= {};
        r.headers['Idempotent-Replayed'] ??= {
          description: `\`true\` when this is the stored answer of an earlier request with the same ${IDEMPOTENCY_KEY_HEADER} (nothing was written now).`,
          schema: { type: 'string', enum: ['true'] },
        };
      }
    }
  }
  return document;
}
