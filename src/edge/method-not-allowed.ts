import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { HTTP_STATUS_OF } from '../errors/error-codes';
import { errorBody } from '../errors/http-exception.filter';
import { RouteHooks } from './route-hooks';

/** A Fastify route path as a whole-path pattern: `:name` is one segment, `*` the rest. */
export function routePattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The methods some route serves on `path`, sorted; empty when no route has that path. */
export function allowedMethods(routes: readonly { pattern: RegExp; methods: readonly string[] }[], path: string): string[] {
  return [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))].sort();
}

/**
 * A request whose path exists but not for its method answers 405 Method Not Allowed with
 * an `Allow` header (RFC 9110 §15.5.6) and the one error body, before any body is read — not the
 * router's 404 (TRACE) or a 400 about a body the route would never read (QUERY) (P144). A path no route
 * has stays a 404. Registered before the routes, so the table sees every one of them.
 */
export function answerMethodNotAllowed(fastify: RouteHooks): void {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  fastify.addHook('onRoute', (route) => {
    routes.push({ pattern: routePattern(route.url), methods: [route.method].flat().map((m) => m.toUpperCase()) });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const path = request.url.split('?')[0];
    const allow = allowedMethods(routes, path);
    if (allow.length === 0 || allow.includes(request.method)) return done();
    const error = new DomainError(
      DomainErrorCode.METHOD_NOT_ALLOWED,
      `method: ${request.method} is not allowed on ${path} (Allow: ${allow.join(', ')})`,
      'method',
    );
    reply.header('allow', allow.join(', '));
    reply.code(HTTP_STATUS_OF[error.code]).send(errorBody(error));
  });
}
