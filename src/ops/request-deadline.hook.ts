import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '../config/app-config';
import { DatabaseLiveness } from '../database/database-liveness';
import { armDeadline } from '../database/request-deadline';
import { errorBody } from '../errors/http-exception.filter';
import { HTTP_STATUS_OF } from '../errors/error-codes';
import { MCP_PATH } from '../errors/mcp-path';
import { abandonAtDeadline, deadlineError, Settled } from '../idempotency/deadline-handoff';
import { GRAPHQL_PATH, writeSurfaceOf } from '../idempotency/write-requests';

// Structural: the few members of Fastify's request and reply this reads.
interface BoundRequest {
  method: string;
  raw: object;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  routeOptions?: { url?: string };
}
interface BoundReply {
  readonly sent: boolean;
  readonly statusCode: number;
  raw: { headersSent: boolean };
  code(status: number): BoundReply;
  status(status: number): BoundReply;
  send(payload?: unknown): BoundReply;
}
type RouteHandler = (this: unknown, request: BoundRequest, reply: BoundReply) => unknown;
interface RouteHost {
  addHook(name: 'onRoute', hook: (route: { url: string; handler: RouteHandler }) => void): unknown;
}

/**
 * Routes that answer for themselves: the probes (their body says what is wrong), /graphql (each
 * root field races the deadline: src/graphql/graphql-deadline.ts) and /mcp (each tool call, in
 * McpService; its reply is hijacked by the SDK's transport).
 */
const ANSWER_FOR_THEMSELVES = new Set(['/health/live', '/health/ready', GRAPHQL_PATH, MCP_PATH]);

/** Marks a handler already bound, so the HEAD route Fastify derives from a GET is not bound twice. */
const BOUND = Symbol('boundByDeadline');

/**
 * P41 on every REST route, at the router: each handler races the request deadline
 * (src/database/request-deadline.ts). At the deadline the request answers 503 with the error
 * body, saying whether its write may still be applied (P123); the handler runs on, and what it
 * then sends — its real answer — is kept for the Idempotency-Key hook instead of being sent.
 *
 * Here rather than in a Nest interceptor (as until P343): any interceptor puts Nest's rxjs
 * chain and two AsyncResource bindings on every request, and profiled that was a fifth of a
 * 1-tool annotation's CPU. Registered before the routes are (app.setup.ts).
 */
export function boundRoutesByDeadline(app: NestFastifyApplication): void {
  const config = app.get(AppConfig);
  const liveness = app.get(DatabaseLiveness);
  const fastify = app.getHttpAdapter().getInstance() as unknown as RouteHost;
  fastify.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandler & { [BOUND]?: true };
    if (ANSWER_FOR_THEMSELVES.has(route.url) || handler[BOUND]) return;
    const bound: RouteHandler & { [BOUND]?: true } = function (request, reply) {
      const stop = armDeadline(Date.now(), config.requestDeadlineMs, liveness, () => answerAtDeadline(request, reply));
      const result = handler.call(this, request, reply);
      // Nest's handlers settle once the answer (or the error's) is sent.
      if (result instanceof Promise) result.then(stop, stop);
      else stop();
      return result;
    };
    bound[BOUND] = true;
    route.handler = bound;
  });
}

function answerAtDeadline(request: BoundRequest, reply: BoundReply): void {
  if (reply.sent || reply.raw.headersSent) return;
  const write = writeSurfaceOf({ method: request.method, route: request.routeOptions?.url, body: request.body }) !== null;
  const error = deadlineError(write, request);
  let settle: (settled: Settled) => void = () => undefined;
  abandonAtDeadline(request, 'rest', new Promise<Settled>((resolve) => (settle = resolve)));
  // The route's declared status, which Nest set before it called the handler; the handler (or
  // the error filter) may still set another below.
  let status = reply.statusCode;
  reply.code(HTTP_STATUS_OF[error.code]).send(errorBody(error));
  // From here on the handler's status and body are its real answer, kept, never sent.
  const keepStatus = (code: number) => ((status = code), reply);
  reply.code = keepStatus;
  reply.status = keepStatus;
  reply.send = (payload) => {
    settle(status < 400 ? { ok: true, status, value: payload } : { ok: false });
    return reply;
  };
}
