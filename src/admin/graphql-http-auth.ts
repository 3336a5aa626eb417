import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { ApiKeyService } from '../auth/api-key.service';
import { Principal } from '../auth/principal';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

const GRAPHQL_HTTP_PATH = '/graphql';

// Structural types: the app's Fastify is @nestjs/platform-fastify's own copy, whose types differ
// from the top-level `fastify` package's.
interface HookRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}
interface HookReply {
  code(status: number): HookReply;
  header(name: string, value: string): HookReply;
  send(body: unknown): HookReply;
}
interface HookHost {
  addHook(name: 'onRequest', hook: (request: HookRequest, reply: HookReply) => Promise<unknown>): unknown;
}

/**
 * True for a GraphQL operation over HTTP: any POST to the endpoint, or a GET carrying `query`.
 * A plain GET (the playground page, its assets) and CORS preflights stay open (D17).
 */
export function isGraphqlOperationRequest(request: Pick<HookRequest, 'method' | 'url'>, path = GRAPHQL_HTTP_PATH): boolean {
  const [pathname, search = ''] = request.url.split('?', 2);
  if (pathname !== path) return false;
  if (request.method === 'POST') return true;
  return request.method === 'GET' && new URLSearchParams(search).has('query');
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
  const fastify = app.getHttpAdapter().getInstance() as unknown as HookHost;
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
