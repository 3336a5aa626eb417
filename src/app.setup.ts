import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { registerGraphqlHttpAuth } from './admin/graphql-http-auth';
import { AppConfig } from './config/app-config';
import { frameworkErrors, MAX_PATH_PARAM_LENGTH } from './errors/framework-errors';
import { HttpExceptionFilter } from './errors/http-exception.filter';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { createValidationPipe } from './errors/validation';
import { refuseStrayUpgrades, WebSocketOnlyUpgradeMessage } from './edge/http-upgrade';
import { answerMethodNotAllowed } from './edge/method-not-allowed';
import { checkJsonCharset, parseJsonBody } from './errors/json-body';

/** Everything main.ts and the e2e tests both apply to the Nest application. */
export function configureApp(app: NestFastifyApplication, config: AppConfig): void {
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  useJsonBodiesOnly(app, config);
  registerGraphqlHttpAuth(app); // D17: POST /graphql without a known key → 401, not 200 with an error
  answerMethodNotAllowed(app.getHttpAdapter().getInstance()); // P144: a known path, another method → 405 + Allow
  refuseStrayUpgrades(app.getHttpServer()); // P60: a WebSocket handshake elsewhere → 404, never a hung socket
  app.enableShutdownHooks();
  if (config.docsEnabled) {
    const document = buildOpenApiDocument(app);
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  }
}

/**
 * P63: `application/json` (UTF-8) is the only body the service reads, on every route, GraphQL
 * included. Fastify's own text/plain parser and Nest's form-urlencoded one are removed (a form
 * body was parsed and written), so another content type is a 415; the JSON parser refuses
 * duplicate and prototype keys and deep nesting with a 400 naming the field (json-body.ts).
 */
function useJsonBodiesOnly(app: NestFastifyApplication, config: AppConfig): void {
  app.getHttpAdapter().getInstance().removeAllContentTypeParsers();
  app.useBodyParser('application/json', { bodyLimit: config.bodyLimitBytes }, (request, body, done) => {
    try {
      checkJsonCharset(request.headers['content-type']);
      done(null, parseJsonBody(body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

export function fastifyOptions(config: AppConfig) {
  return {
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH }, // D3a ids fit, encoded (found by the fuzzer)
    frameworkErrors, // the router's own refusals answer with ErrorBody
    http: { IncomingMessage: WebSocketOnlyUpgradeMessage }, // P60: `Upgrade: h2c` (Java's HttpClient) is served as HTTP/1.1
  };
}
