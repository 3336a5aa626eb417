import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { documentIdempotencyKey } from '../idempotency/idempotency-openapi';
import { buildOpenApiDocument } from './openapi-document';

/**
 * The document `/docs/openapi.json` serves, and the one `npm run openapi:generate` commits as
 * openapi.json (P153): built from the controllers' metadata only, so an app in Nest's preview
 * mode (no provider instantiated, no database) yields the same document as the running one.
 */
export function servedOpenApiDocument(app: INestApplication): OpenAPIObject {
  return documentIdempotencyKey(buildOpenApiDocument(app));
}
