import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { documentIdempotencyKey } from '../idempotency/idempotency-openapi';
import { buildOpenApiDocument } from './openapi-document';
import { openApi31 } from './openapi-31';

/**
 * The document `/docs/openapi.json` serves, and the one `npm run openapi:generate` commits as
 * openapi.json (P153): built from the controllers' metadata only, so an app in Nest's preview
 * mode (no provider instantiated, no database) yields the same document as the running one.
 * @nestjs/swagger writes OpenAPI 3.0; the last step says it as OpenAPI 3.1 (P240), after every
 * other step has added its parts.
 */
export function servedOpenApiDocument(app: INestApplication): OpenAPIObject {
  return openApi31(documentIdempotencyKey(buildOpenApiDocument(app)));
}
