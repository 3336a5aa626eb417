import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { ApiKeyService } from '../auth/api-key.service';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { OnRequestHost, OnRequestRequest } from '../auth/on-request-hook';

const GRAPHQL_HTTP_PATH = '/graphql';

/**
 * True for a GraphQL operation over HTTP: every request to the endpoint but a plain GET/HEAD
 * with no query string (the playground page) and CORS preflights (D17). P61: a GET with any
 * parameter counts, not only one with `query` (`?extensions={"persistedQuery":…}` without a
 * `query` passed the check while automatic persisted queries were on), and so does every
 * method and body form Apollo may accept.
 */
export function isGraphqlOperationRequest(
  request: Pick<OnRequestRequest, 'method' | 'url' | 'routeOptions'>,
  path = GRAPHQL_HTTP_PATH,
): boolean {
  const q = request.url.indexOf('?');
  const pathname = q < 0 ? request.url : request.url.slice(0, q);
  if (pathname !== path && request.routeOptions?.url !== path) return false;
  if (request.method === 'OPTIONS') return false;
  if (request.method === 'GET' || request.method === 'HEAD') return q >= 0 && q < request.url.length - 1;
  return true;
}

/**
 * D17 over GraphQL-over-HTTP: no key or an unknown key is an HTTP 401, not the 200-with-errors
 * Apollo would send for the guard's UNAUTHENTICATED. The body is still a GraphQL response
 * (`errors[0].extensions.code`), so clients can branch the same way. Roles stay with the guard
 * (a wrong role is a FORBIDDEN error, D17). The principal found here is kept on the request,
 * where ApiKeyGuard picks it up instead of hashing the key again.
 */
export function registerGraphqlHttpAuth(app: NestFastifyApplication, path = GRAPHQL_HTTP_PATH): void {
  let keys: ApiKeyService | undefined;
  const fastify = app.getHttpAdapter().getInstance() as unknown as OnRequestHost;
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isGraphqlOperationRequest(request, path)) return undefined;
    const service: ApiKeyService = (keys ??= app.get<ApiKeyService>(ApiKeyService));
    try {
      request.principal = service.authenticate(request.headers[API_KEY_HEADER]);
      return undefined;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== DomainErrorCode.UNAUTHENTICATED) throw error;
      return reply
        .code(401)
        .header('content-type', 'application/json; charset=utf-8')
        .send({ errors: [{ message: error.message, extensions: { code: 'UNAUTHENTICATED' } }] });
    }
  });
}
