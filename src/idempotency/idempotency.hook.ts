import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IDEMPOTENCY_KEY_HEADER } from '../domain/idempotency-key';
import { IdempotencyService, KeyedReply, KeyedRequest } from './idempotency.service';
import { writeSurfaceOf } from './write-requests';

interface HookHost {
  addHook(
    name: 'preHandler',
    hook: (request: KeyedRequest & { routeOptions?: { url?: string } }, reply: KeyedReply) => Promise<unknown>,
  ): unknown;
}

const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();

/**
 * Registered once (app.setup.ts) for every route (D21). A preHandler hook runs after the body is
 * parsed and before Nest's guards and handler, on REST, on Apollo's /graphql route and on /mcp
 * alike; a request without the header, or one that does not write, costs one header lookup.
 */
export function registerIdempotency(app: NestFastifyApplication): void {
  let service: IdempotencyService | undefined;
  const fastify = app.getHttpAdapter().getInstance() as unknown as HookHost;
  fastify.addHook('preHandler', async (request, reply) => {
    if (request.headers[HEADER] === undefined) return undefined;
    const surface = writeSurfaceOf({ method: request.method, route: request.routeOptions?.url, body: request.body });
    if (!surface) return undefined;
    const idempotency = (service ??= app.get<IdempotencyService>(IdempotencyService) as IdempotencyService);
    return idempotency.handle(surface, request, reply);
  });
}
