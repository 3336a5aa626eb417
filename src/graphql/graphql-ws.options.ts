import { GraphQLWsSubscriptionsConfig } from '@nestjs/graphql';
import { GraphQLError, NoSchemaIntrospectionCustomRule, parse, specifiedRules, validate } from 'graphql';
import type { GraphQLFormattedError } from 'graphql';
import type { Context } from 'graphql-ws';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { ApiKeyService } from '../auth/api-key.service';
import { Principal, holdsRole } from '../auth/principal';
import { Role } from '../domain/role';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { MAX_QUERY_TOKENS, queryLimitsRule } from './graphql-limits';
import { extensionsWithWarnings } from '../shapes/graphql-warnings';
import { raiseMaxPayload } from './ws-payload-bound';

/** graphql-ws close codes for a refused `connection_init` (D17). */
export const WS_CLOSE_UNAUTHORIZED = 4401;
export const WS_CLOSE_FORBIDDEN = 4403;

/** Who may open a subscription socket at all (admin always may) (D17). */
export const SUBSCRIBER_ROLES: readonly Role[] = [Role.AUDIT_READER];

/** RFC 6455: a close frame's reason is at most 123 bytes of UTF-8. */
export const MAX_CLOSE_REASON_BYTES = 123;

/** The roles that may subscribe, admin first, each once (the wording of ApiKeyService.authorize). */
export function subscriberRoleList(): string {
  return [...new Set([Role.ADMIN, ...SUBSCRIBER_ROLES])].join(', ');
}

/**
 * The reason sent with close 4401 / 4403 (P100: the playground shows it as it stands): what was
 * wrong and what to send instead, with the roles that may subscribe. `detail` (the key's name,
 * the authentication message) goes only when the whole still fits the 123 bytes.
 */
export function wsCloseReason(code: typeof WS_CLOSE_UNAUTHORIZED | typeof WS_CLOSE_FORBIDDEN, detail?: string): string {
  const variants =
    code === WS_CLOSE_UNAUTHORIZED
      ? [
          `Unauthorized: ${detail}; send {"x-api-key": "<key>"} in connection_init`,
          'Unauthorized: send {"x-api-key": "<key>"} in connection_init',
        ]
      : [
          `Forbidden: key "${detail}" may not subscribe (needs one of: ${subscriberRoleList()})`,
          `Forbidden: subscribing needs one of: ${subscriberRoleList()}`,
        ];
  const candidates = detail === undefined ? variants.slice(1) : variants;
  return candidates.find((r) => Buffer.byteLength(r, 'utf8') <= MAX_CLOSE_REASON_BYTES) ?? candidates[candidates.length - 1];
}

/** graphql-ws/use/ws's `Extra` (its subpath types need node16 resolution) plus the socket's principal. */
interface WsExtra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  principal?: Principal;
}
type WsContext = Context<Record<string, unknown> | undefined, unknown>;

function extraOf(ctx: WsContext): WsExtra {
  return ctx.extra as WsExtra;
}

/** The GraphQL context of an operation sent over graphql-ws: no HTTP request, the socket's principal. */
export interface WsGraphqlContext {
  principal: Principal;
  connectionParams: Record<string, unknown> | undefined;
}

/** The key may come as `x-api-key` (GraphiQL sends its headers editor this way) or `X-API-Key`. */
function keyOf(params: Record<string, unknown> | undefined): unknown {
  if (!params) return undefined;
  const name = Object.keys(params).find((k) => k.toLowerCase() === API_KEY_HEADER);
  return name === undefined ? undefined : params[name];
}

/** The same error with a client-error code, as Apollo gives parse and validation errors over HTTP. */
function clientError(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

/** The module's Apollo formatError, reused for graphql-ws traffic. */
export type FormatGraphqlError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * Options for graphql-ws (`subscriptions: {'graphql-ws': …}`): the API key comes once, in the
 * `connection_init` payload. No or unknown key → close 4401; a key without a subscriber role →
 * close 4403. The principal then rides in every operation's context, where ApiKeyGuard and
 * @CurrentPrincipal find it (the guard checks each resolver's roles again).
 */
export function graphqlWsOptions(
  keys: ApiKeyService,
  formatError: FormatGraphqlError,
  edge = { introspection: true },
): GraphQLWsSubscriptionsConfig {
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => formatError(e.toJSON(), e));
  // The same token bound and limits as over HTTP (graphql-ws parses and validates on its own) (P61).
  const rules = [...specifiedRules, queryLimitsRule(), ...(edge.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const options = {
    parse: (source: string) => parse(source, { maxTokens: MAX_QUERY_TOKENS }),
    validate: (schema: Parameters<typeof validate>[0], document: Parameters<typeof validate>[1]) => validate(schema, document, rules),
    onConnect: (ctx: WsContext): boolean => {
      let principal: Principal;
      try {
        // The key may also come as the upgrade request's own header (clients that set headers on the handshake) (P149).
        principal = keys.authenticate(keyOf(ctx.connectionParams) ?? extraOf(ctx).request?.headers?.[API_KEY_HEADER]);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== DomainErrorCode.UNAUTHENTICATED) throw error;
        // graphql-ws closes a refused connection with 4403; close first with 4401 (the later close is ignored).
        extraOf(ctx).socket.close(WS_CLOSE_UNAUTHORIZED, wsCloseReason(WS_CLOSE_UNAUTHORIZED, error.message));
        return false;
      }
      if (!SUBSCRIBER_ROLES.some((role) => holdsRole(principal, role))) {
        extraOf(ctx).socket.close(WS_CLOSE_FORBIDDEN, wsCloseReason(WS_CLOSE_FORBIDDEN, principal.name));
        return false;
      }
      extraOf(ctx).principal = principal;
      raiseMaxPayload(extraOf(ctx).socket); // P149: the small pre-key bound lifts only for a known key
      return true;
    },
    // Apollo's formatError does not see graphql-ws traffic: give its errors the same codes here.
    // Warnings a resolver recorded on the operation's context go out as over HTTP (P150).
    onNext: (
      _ctx: WsContext,
      _id: string,
      _payload: unknown,
      args: { contextValue?: unknown },
      result: { errors?: readonly GraphQLError[]; extensions?: Record<string, unknown> },
    ) => {
      const extensions = extensionsWithWarnings(args.contextValue, result.extensions);
      if (!result.errors && !extensions) return undefined;
      return { ...result, ...(result.errors ? { errors: format(result.errors) } : {}), ...(extensions ? { extensions } : {}) };
    },
    // A document over the token bound makes graphql-ws's own parse throw, which closes the
    // socket with 4500; parsed here first, it is an error message for that operation instead (P149).
    onSubscribe: (_ctx: WsContext, _id: string, payload: { query: string }): readonly GraphQLError[] | undefined => {
      try {
        parse(payload.query, { maxTokens: MAX_QUERY_TOKENS });
        return undefined;
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        return [clientError(error, 'GRAPHQL_PARSE_FAILED')];
      }
    },
    // Errors before execution (parse, validation): the codes Apollo gives them over HTTP. Coded
    // before formatting (P149): formatError masks an uncoded error as INTERNAL_SERVER_ERROR in production.
    onError: (_ctx: WsContext, _id: string, _payload: unknown, errors: readonly GraphQLError[]) =>
      format(
        errors.map((e) =>
          e.extensions?.code
            ? e
            : clientError(e, e.message.startsWith('Syntax Error') ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED'),
        ),
      ),
    // Replaces the module's HTTP context function, which would make this ws context the `req`
    // (without headers). Nest spreads these options after its own `context`, so this one wins;
    // its type leaves `context` out, hence the cast below.
    context: (ctx: WsContext): WsGraphqlContext => ({ principal: extraOf(ctx).principal!, connectionParams: ctx.connectionParams }),
  };
  return options as GraphQLWsSubscriptionsConfig;
}
