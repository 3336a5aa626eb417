import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { registerGraphqlHttpAuth } from './graphql/graphql-http-auth';
import { AppConfig } from './config/app-config';
import { frameworkErrors, MAX_PATH_PARAM_LENGTH } from './errors/framework-errors';
import { HttpExceptionFilter } from './errors/http-exception.filter';
import { servedOpenApiDocument } from './openapi/served-document';
import { createValidationPipe } from './errors/validation';
import { refuseStrayUpgrades, WebSocketOnlyUpgradeMessage } from './edge/http-upgrade';
import { answerMethodNotAllowed } from './edge/method-not-allowed';
import { refuseRawSlashInPathParams } from './edge/slash-in-path-param';
import { checkJsonCharset, decodeUtf8Body, parseJsonBody } from './errors/json-body';
import { registerKeyBeforeBody } from './auth/key-before-body.hook';
import { mcpUnreadableBody, registerMcpEdge } from './mcp/mcp-edge.hook';
import { registerIdempotency } from './idempotency/idempotency.hook';
import { CloseOnShutdownResponse } from './ops/close-on-shutdown.response';
import { boundRoutesByDeadline } from './ops/request-deadline.hook';
import { registerAnswerWriters } from './shapes/answer-written-by';

/** Everything main.ts and the e2e tests both apply to the Nest application. */
export function configureApp(app: NestFastifyApplication, config: AppConfig): void {
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  useJsonBodiesOnly(app, config);
  registerGraphqlHttpAuth(app); // D17: POST /graphql without a known key → 401, not 200 with an error
  registerMcpEdge(app, config); // P136: Host/Origin and the key of /mcp, answered as JSON-RPC
  registerKeyBeforeBody(app); // P135: no body is read for a request without a known key
  registerIdempotency(app); // D21: Idempotency-Key on every write route, REST, GraphQL and MCP
  boundRoutesByDeadline(app); // P41: every REST route answers within the request deadline
  registerAnswerWriters(app); // P353: answers of many entries written by compiled code
  answerMethodNotAllowed(app.getHttpAdapter().getInstance()); // P144: a known path, another method → 405 + Allow
  refuseRawSlashInPathParams(app.getHttpAdapter().getInstance()); // P243: `/` unencoded in an id of the path → 400 naming it
  refuseStrayUpgrades(app.getHttpServer()); // P60: a WebSocket handshake elsewhere → 404, never a hung socket
  app.enableShutdownHooks();
  if (config.docsEnabled) {
    const document = servedOpenApiDocument(app);
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  }
}

/**
 * `application/json` (UTF-8) is the only body the service reads, on every route, GraphQL
 * included (P63). Fastify's own text/plain parser and Nest's form-urlencoded one are removed (a form
 * body was parsed and written), so another content type is a 415; the JSON parser refuses
 * duplicate and prototype keys and deep nesting with a 400 naming the field (json-body.ts), and
 * bytes that are not UTF-8 or strings with lone surrogates (P137).
 */
function useJsonBodiesOnly(app: NestFastifyApplication, config: AppConfig): void {
  app.getHttpAdapter().getInstance().removeAllContentTypeParsers();
  app.useBodyParser('application/json', { bodyLimit: config.bodyLimitBytes }, (request, body, done) => {
    try {
      checkJsonCharset(request.headers['content-type']);
      done(null, parseJsonBody(decodeUtf8Body(body as Buffer)));
    } catch (error) {
      const forMcp = mcpUnreadableBody(request, error); // P136: answered as JSON-RPC -32700
      if (forMcp) done(null, forMcp);
      else done(error as Error, undefined);
    }
  });
}

export function fastifyOptions(config: AppConfig) {
  return {
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH }, // D3a ids fit, encoded (found by the fuzzer)
    frameworkErrors, // the router's own refusals answer with ErrorBody
    // A request (headers and body) must arrive within HTTP_REQUEST_TIMEOUT_MS, else 408 and
    // closed: the only timeout that ends a body trickled a byte at a time (connectionTimeout is
    // inactivity) (P127). Node applies it only with headersTimeout no longer than it, and checks every
    // connectionsCheckingInterval (30 s by default).
    requestTimeout: config.httpRequestTimeoutMs,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    http: {
      IncomingMessage: WebSocketOnlyUpgradeMessage, // P60: `Upgrade: h2c` (Java's HttpClient) is served as HTTP/1.1
      ServerResponse: CloseOnShutdownResponse, // P127: `Connection: close` once shutdown began
      headersTimeout: Math.min(60_000, config.httpRequestTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
  };
}
