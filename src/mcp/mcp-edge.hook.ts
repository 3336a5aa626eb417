import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { ApiKeyService } from '../auth/api-key.service';
import { authenticateOnRequest } from '../auth/key-before-body.hook';
import { AppConfig } from '../config/app-config';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { JsonRpcErrorCode, jsonRpcAnswerOf, jsonRpcError } from '../errors/json-rpc-errors';
import { MCP_PATH } from '../errors/mcp-path';
import { OnRequestHost, OnRequestRequest } from '../auth/on-request-hook';

/**
 * What a 401 from /mcp tells a client about the credential it needs (RFC 9110 §11.6.1) (P136).
 * Not `Bearer`: the service does no OAuth, and an SDK client given an OAuth provider would start
 * a discovery that cannot succeed.
 */
export const MCP_WWW_AUTHENTICATE = `ApiKey realm="tool-availability", header="${API_KEY_HEADER}"`;

/**
 * Issue 36 (P245): the reason phrase of /mcp's 401 names the header, because it is the one text
 * every client shows: an HTTP library's status error (Python's httpx: "Client error '401 …' for
 * url"), the TypeScript SDK's stream error, a proxy's log. The MCP Inspector reads any 401 as an
 * OAuth challenge; this and the body's message are where its user learns a key header is missing.
 */
export const MCP_UNAUTHORIZED_REASON = `Unauthorized: send an API key in the ${API_KEY_HEADER} header`;

/** The host name of a Host header (`h:port`, `[::1]:port`) or an Origin (`scheme://h:port`); null if malformed. */
function hostNameOf(value: string, isOrigin: boolean): string | null {
  try {
    const url = new URL(isOrigin ? value : `http://${value}`);
    if (!isOrigin && (url.pathname !== '/' || url.search || url.username)) return null;
    return url.hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The reason to refuse a request whose Host, or Origin when a browser sent one, is not an
 * allowed host name (DNS rebinding: a page whose name now resolves to this service) (P136). Ports are not
 * compared (PORT may be 0, a proxy may map it). Null = allowed.
 */
export function hostRefusal(headers: OnRequestRequest['headers'], allowed: readonly string[]): string | null {
  if (allowed.includes('*')) return null;
  const host = headers.host;
  const hostName = typeof host === 'string' ? hostNameOf(host, false) : null;
  if (!hostName || !allowed.includes(hostName)) {
    return `Host ${JSON.stringify(host ?? '')} is not an allowed host of this MCP server (MCP_ALLOWED_HOSTS)`;
  }
  const origin = headers.origin;
  if (origin === undefined) return null;
  const originName = typeof origin === 'string' ? hostNameOf(origin, true) : null;
  if (!originName || !allowed.includes(originName)) {
    return `Origin ${JSON.stringify(origin)} is not an allowed origin of this MCP server (MCP_ALLOWED_HOSTS)`;
  }
  return null;
}

/**
 * /mcp answers what stops a request before any JSON-RPC message is read as JSON-RPC, so both
 * SDKs surface the message: a forged Host or Origin → 403 (-32000), no or an unknown key → 401
 * (-32001) with a WWW-Authenticate header, both before the body is read (P135) (P136). The principal
 * found here stays on the request for ApiKeyGuard (roles, P73).
 */
export function registerMcpEdge(app: NestFastifyApplication, config: AppConfig): void {
  let keys: ApiKeyService | undefined;
  const fastify = app.getHttpAdapter().getInstance() as unknown as OnRequestHost;
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions?.url !== MCP_PATH) return undefined;
    const refusal = hostRefusal(request.headers, config.mcpAllowedHosts);
    if (refusal) {
      return reply.code(403).send(jsonRpcError(JsonRpcErrorCode.REFUSED, refusal, { code: DomainErrorCode.FORBIDDEN }));
    }
    const refused = authenticateOnRequest(request, (keys ??= app.get<ApiKeyService>(ApiKeyService)));
    if (!refused) return undefined;
    const { status, body } = jsonRpcAnswerOf(refused);
    reply.raw.statusMessage = MCP_UNAUTHORIZED_REASON;
    return reply.code(status).header('www-authenticate', MCP_WWW_AUTHENTICATE).send(body);
  });
}

/**
 * A /mcp body the JSON parser refused (not UTF-8, not JSON, duplicate keys, too deep),
 * handed to McpController as the body instead of a REST 400, so it answers JSON-RPC's -32700 (P136).
 */
export class McpUnreadableBody {
  constructor(readonly error: DomainError) {}
}

/** The body parser's refusal as /mcp's body when the request is for /mcp; null otherwise. */
export function mcpUnreadableBody(request: { routeOptions?: { url?: string } }, error: unknown): McpUnreadableBody | null {
  const refusal = request.routeOptions?.url === MCP_PATH && error instanceof DomainError && error.code === DomainErrorCode.INVALID_ARGUMENT;
  return refusal ? new McpUnreadableBody(error) : null;
}
