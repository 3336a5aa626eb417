import { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** The one path that accepts a protocol upgrade: graphql-ws subscriptions (D13). */
export const WEBSOCKET_PATH = '/graphql';

const UPGRADE = Symbol('upgrade');

/** True when the request asks for a WebSocket (RFC 6455 §4.1: `Upgrade: websocket`, any case). */
export function asksForWebSocket(headers: IncomingMessage['headers']): boolean {
  const value = headers.upgrade;
  return typeof value === 'string' && value.split(',').some((token) => token.trim().toLowerCase() === 'websocket');
}

/**
 * The request class of the HTTP server (P60). Node's server turns every request with
 * `Connection: Upgrade` into an 'upgrade' event as soon as any 'upgrade' listener exists (the
 * graphql-ws one does), and never into a 'request': Java's default HttpClient sends
 * `Upgrade: h2c` on every http:// request and got no answer at all. Node 20 has no
 * `shouldUpgradeCallback` (newer Node has); the server reads `req.upgrade` once the headers are
 * parsed, so this getter answers "upgrade" only for a WebSocket handshake. Every other upgrade
 * (h2c, TLS, anything) is ignored and the request is served as plain HTTP/1.1 (RFC 9110 §7.8:
 * a server may ignore Upgrade).
 */
export class WebSocketOnlyUpgradeMessage extends IncomingMessage {
  // An accessor on the prototype, not a field: IncomingMessage's constructor assigns `upgrade`
  // before a subclass field would exist, and the parser assigns it again after construction.
  get upgrade(): boolean {
    return Boolean((this as unknown as Record<symbol, unknown>)[UPGRADE]) && asksForWebSocket(this.headers);
  }

  set upgrade(value: boolean) {
    (this as unknown as Record<symbol, unknown>)[UPGRADE] = value;
  }
}

/**
 * A WebSocket handshake to any path but the subscription endpoint: graphql-ws' listener leaves
 * it alone, so without this the socket stayed open forever (and held shutdown). Answer 404 and
 * close, as Nest's listener does not take it (it takes URLs starting with the path).
 */
export function refuseStrayUpgrades(server: Pick<Server, 'on'>, path = WEBSOCKET_PATH): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    if (request.url?.startsWith(path)) return;
    const body = JSON.stringify({ statusCode: 404, error: 'NOT_FOUND', message: `path: only ${path} accepts a WebSocket upgrade` });
    socket.end(
      'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}
