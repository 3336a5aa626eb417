import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { Role } from '../domain/role';
import { documentAgrajagArguments } from '../features/diagnoses/agrajag-openapi';
import { documentErrorResponses } from '../errors/openapi-errors';
import { documentOperations } from './operation-docs';
import { documentPathSlashes } from './path-slashes';
import { documentOperationRoles, operationAccess } from './operation-roles';
import { documentRequestShapes } from './request-shapes';

/** What the Authorize dialog says about the key (P140): the header, and which role each kind of caller holds. */
export const API_KEY_DESCRIPTION =
  `An API key in the \`${API_KEY_HEADER}\` header. Each operation names the roles whose key it takes (its description and \`x-roles\`): ` +
  `\`${Role.DISPATCHER}\` (the dispatcher: outcomes, system writes, manifest), ` +
  `\`${Role.TOOL_HEALTH_WRITER}\` (the diagnosis engine Agrajag: verdicts, probes), ` +
  `\`${Role.AUDIT_READER}\` (read-only: lookups, events, maintenance windows, metrics) and ` +
  `\`${Role.ADMIN}\` (every operation). \`npm start\` prints one development key per role.`;

/**
 * The served OpenAPI document. `servers` is relative (P140): Swagger UI's Try-it-out calls the
 * host and port the page came from, and a generated client takes its base URL from its caller.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Tool availability service')
      .setDescription("State of each tool's availability: status per scope, cooldowns per error signature, manifest annotation.")
      .setVersion('1')
      .addApiKey({ type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: API_KEY_DESCRIPTION }, 'api-key')
      .addServer('/', 'The service that served this document (any host and port)')
      .build(),
  );
  const access = operationAccess(app);
  return documentPathSlashes(
    documentRequestShapes(documentOperations(documentOperationRoles(documentAgrajagArguments(documentErrorResponses(document)), access))),
  );
}
