import { IncomingMessage, Server, ServerResponse } from 'node:http';

/** HTTP servers whose shutdown has begun (DrainOnCloseHook marks them in Fastify's preClose). */
const shuttingDown = new WeakSet<object>();

export function markShuttingDown(server: Server): void {
  shuttingDown.add(server);
}

type WriteHead = (this: ServerResponse, statusCode: number, ...rest: unknown[]) => ServerResponse;

/**
 * The response class of the HTTP server (P127). Once shutdown has begun, every answer — those of
 * requests already in flight included — goes out with `Connection: close` and its connection is
 * closed after it, so a keep-alive caller opens a new connection for its next request (refused
 * once the server stopped listening) instead of reusing one the server is about to drop (a reset
 * with the request unread). Node decides the header from `shouldKeepAlive` when the head is
 * written (also for an implicit head); before shutdown this costs one set lookup per response.
 */
export class CloseOnShutdownResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const server = (this.req?.socket as { server?: object } | undefined)?.server;
    if (server && shuttingDown.has(server)) this.shouldKeepAlive = false;
    return (ServerResponse.prototype.writeHead as WriteHead).call(this, statusCode, ...rest) as this;
  }
}
