import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { errorBody } from '../errors/http-exception.filter';
import { API_KEY_HEADER } from './api-key.guard';
import { ApiKeyService } from './api-key.service';
import { OnRequestHost, OnRequestRequest } from './on-request-hook';

/** The only routes open without a key that a body could be sent to (D17: the probes). */
const OPEN_ROUTE = /^\/health\//;

/** True when the request announces a body (a length above zero, or chunks). */
export function carriesBody(headers: OnRequestRequest['headers']): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/**
 * A request with a body to a route that needs a key is answered 401 before a byte of the
 * body is read, with the same body as the guard's 401 (D17) (P135). Fastify reads and parses the body
 * before Nest's guard runs: a 3.7 MiB body without a key cost ~450 ms of event loop before its
 * 401. The principal found here stays on the request; ApiKeyGuard uses it and still decides the
 * role (403). A route the router does not know (404) reads no body and is left alone; /graphql
 * and /mcp have run their own checks before this hook (registerGraphqlHttpAuth, P136).
 */
export function registerKeyBeforeBody(app: NestFastifyApplication): void {
  let keys: ApiKeyService | undefined;
  const fastify = app.getHttpAdapter().getInstance() as unknown as OnRequestHost;
  fastify.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions?.url;
    if (request.principal || !route || OPEN_ROUTE.test(route) || !carriesBody(request.headers)) return undefined;
    const refused = authenticateOnRequest(request, (keys ??= app.get<ApiKeyService>(ApiKeyService)));
    return refused ? reply.code(401).send(errorBody(refused)) : undefined;
  });
}

/**
 * The key check of a request hook, written once for the REST and MCP hooks: puts the principal
 * of the request's API key on it, or returns the UNAUTHENTICATED error for the hook to answer in
 * its own protocol. Any other error is thrown on.
 */
export function authenticateOnRequest(request: OnRequestRequest, keys: ApiKeyService): DomainError | null {
  try {
    request.principal = keys.authenticate(request.headers[API_KEY_HEADER]);
    return null;
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== DomainErrorCode.UNAUTHENTICATED) throw error;
    return error;
  }
}
