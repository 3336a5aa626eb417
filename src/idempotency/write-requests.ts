import { parse, OperationDefinitionNode } from 'graphql';
import { MCP_PATH } from '../errors/mcp-path';
import { findTool } from '../mcp/mcp-tools';

/** The three surfaces a keyed write can come through; each answers refusals in its own shape. */
export enum WriteSurface {
  REST = 'REST',
  GRAPHQL = 'GRAPHQL',
  MCP = 'MCP',
}

export const GRAPHQL_PATH = '/graphql';

/** REST routes that take a body to read, not to write: a key there is ignored. */
const READ_POSTS = new Set(['/v1/availability/lookup', '/v1/manifest/annotate', '/v1/manifest/annotate/changes', '/v1/manifest/explain']);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RouteRequest {
  method: string;
  /** The route the router matched (`/v1/maintenance-windows/:id`), undefined for a 404. */
  route: string | undefined;
  body: unknown;
}

/**
 * Which requests a key applies to — every REST write route, a GraphQL mutation over HTTP
 * POST (a query or subscription ignores the header), an MCP `tools/call` of a writer tool (D21). Null
 * for anything else (the header is then ignored, as the draft allows).
 */
export function writeSurfaceOf(request: RouteRequest): WriteSurface | null {
  if (!WRITE_METHODS.has(request.method) || request.route === undefined) return null;
  if (request.route === GRAPHQL_PATH) return request.method === 'POST' && isGraphqlMutation(request.body) ? WriteSurface.GRAPHQL : null;
  if (request.route === MCP_PATH) return request.method === 'POST' && isMcpWrite(request.body) ? WriteSurface.MCP : null;
  if (request.method === 'POST' && READ_POSTS.has(request.route)) return null;
  return WriteSurface.REST;
}

/** True when the operation a GraphQL request would run is a mutation (an unparsable one is not: Apollo refuses it). */
export function isGraphqlMutation(body: unknown): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  try {
    const operations = parse(query).definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
    const chosen =
      typeof operationName === 'string'
        ? operations.find((o) => o.name?.value === operationName)
        : operations.length === 1
          ? operations[0]
          : undefined;
    return chosen?.operation === 'mutation';
  } catch {
    return false;
  }
}

function isMcpWrite(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const { method, params } = (m ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return false;
    return findTool(params.name)?.annotations.readOnlyHint === false;
  });
}

/**
 * The body that makes two requests the same. MCP: the JSON-RPC `id` is the client's message
 * counter, new on every retry, so it is left out (the replay carries the retry's own id).
 */
export function fingerprintBody(surface: WriteSurface, body: unknown): unknown {
  if (surface !== WriteSurface.MCP || !body || typeof body !== 'object' || Array.isArray(body)) return body ?? null;
  const { id: _id, ...rest } = body as Record<string, unknown>;
  return rest;
}
