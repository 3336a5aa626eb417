import { DomainError } from '../domain/domain-error';
import { HTTP_STATUS_OF } from '../errors/error-codes';
import { errorBody } from '../errors/http-exception.filter';
import { RouteHooks } from './route-hooks';

export interface ParamRoute {
  methods: readonly string[];
  /** The route's path with each `:name` free to span segments, and the names in order. */
  loose: RegExp;
  names: readonly string[];
}

/** A Fastify route path whose parameters may hold a `/`; undefined for a route without parameters or with a wildcard. */
export function paramRoute(url: string, methods: readonly string[]): ParamRoute | undefined {
  const names: string[] = [];
  if (url.includes('*')) return undefined;
  const source = url
    .split(/(:[A-Za-z0-9_]+)/)
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '(.+)';
    })
    .join('');
  return names.length ? { methods, loose: new RegExp(`^${source}$`), names } : undefined;
}

/**
 * The parameter a raw `/` went into, when `path` (which no route serves) is a route's path with a
 * `/` inside one of its parameters: `/v1/tools/a/b/availability` is the tool `a/b` sent unencoded.
 */
export function rawSlashParameter(routes: readonly ParamRoute[], method: string, path: string): string | undefined {
  for (const route of routes) {
    if (!route.methods.includes(method)) continue;
    const match = route.loose.exec(path);
    const index = match?.slice(1).findIndex((value) => value.includes('/')) ?? -1;
    if (index >= 0) return route.names[index];
  }
  return undefined;
}

export const RAW_SLASH_RULE = 'a "/" inside a path parameter must be sent percent-encoded as %2F';

/**
 * P243: ids may contain `/` (a tool named `jira/search`), and a path parameter carries one only
 * percent-encoded (`/v1/tools/jira%2Fsearch/availability`, which the router decodes). Sent raw,
 * the path has more segments than the route and would be the router's 404, which the document
 * cannot describe and which tells the caller nothing; it is a 400 naming the parameter and the
 * rule instead, as each such operation's 400 and parameter description say. A path no route
 * could have produced stays a 404. Registered before the routes, so the table sees every one.
 */
export function refuseRawSlashInPathParams(fastify: RouteHooks): void {
  const routes: ParamRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    const found = paramRoute(
      route.url,
      [route.method].flat().map((m) => m.toUpperCase()),
    );
    if (found) routes.push(found);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const field = rawSlashParameter(routes, request.method, request.url.split('?')[0]);
    if (field === undefined) return done();
    const error = DomainError.invalid(field, RAW_SLASH_RULE);
    reply.code(HTTP_STATUS_OF[error.code]).send(errorBody(error));
  });
}
