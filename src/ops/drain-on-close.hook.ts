import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppConfig } from '../config/app-config';
import { markShuttingDown } from './close-on-shutdown.response';

const REAP_EVERY_MS = 50;

// Structural types: only the members of the adapter's Fastify used here (its own types are generic).
interface ReapableServer {
  listening: boolean;
  close(): unknown;
  closeIdleConnections(): void;
  on(event: 'connection', listener: (socket: Socket) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}
interface HookHost {
  server: ReapableServer;
  addHook(name: 'preClose', hook: (done: () => void) => void): unknown;
}

/**
 * Graceful shutdown with keep-alive callers. On close, Fastify stops listening and Node reaps
 * the connections idle at that moment; in-flight requests finish (Nest closes the HTTP server
 * before the database). But a connection whose request was in flight turns idle only after its
 * answer, and then holds close() open until the caller drops it (Fastify's keepAliveTimeout is
 * 72 s), past an orchestrator's grace period, so the shutdown hooks after it (the D10b
 * bookkeeping flush, the database close) would never run. While closing, idle connections are
 * therefore reaped every 50 ms (P22), those idle when the close began after a short drain (P151);
 * nothing runs per request. From the same moment every answer
 * closes its connection (`Connection: close`, CloseOnShutdownResponse), and after
 * SHUTDOWN_GRACE_MS every connection that waits on its client — a body trickled in, an answer not
 * read — is destroyed, so the close and the final flush never wait on a client (P127); a request
 * read whole and still being handled is answered.
 * Proven by the graceful-shutdown case of test/db-faults.e2e-spec.ts and by
 * test/persistent/start-shutdown.e2e-spec.ts.
 */
@Injectable()
export class DrainOnCloseHook implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(DrainOnCloseHook.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  /**
   * Nest's close begins here, before the other modules' hooks and the HTTP server's close (main.ts
   * marks the server even earlier, at the signal): from here on every answer closes its
   * connection, so keep-alive callers stop reusing connections the server is about to drop.
   */
  onModuleDestroy(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server) markShuttingDown(server);
  }

  /** Every open socket (upgraded WebSockets included), for the grace below: per connection, not per request. */
  private readonly sockets = new Set<Socket>();
  private server: ReapableServer | null = null;
  private draining = false;

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'fastify') return;
    const fastify = adapter.getInstance() as HookHost;
    this.server = fastify.server;
    fastify.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    fastify.addHook('preClose', (done) => {
      this.stopAccepting();
      // Fastify closes the server right after this hook (already closed: it waits for the
      // connections all the same), and Node's close() reaps the idle connections through the
      // method replaced below (after the drain): in the check phase too, for the reason below.
      setImmediate(done);
    });
  }

  /**
   * The shutdown's first step, taken at the signal itself (main.ts) or, without one, when the
   * application closes; once only. The listener closes at once, so a caller told `Connection:
   * close` that connects again is refused (ECONNREFUSED: nothing was sent, it may retry
   * elsewhere) instead of being accepted into a queue the closing listener would reset with its
   * request unread (P223; measured: 74 such resets in 10 stops under 20 keep-alive clients when
   * the listener stayed open through the application's shutdown hooks). Connections already open
   * are served on, each answer closing its connection.
   */
  stopAccepting(): void {
    const server = this.server;
    if (this.draining || !server?.listening) return;
    this.draining = true;
    markShuttingDown(server as unknown as Server);
    let graceOver = false;
    // A keep-alive connection idle at this moment last answered without `Connection:
    // close`, so its caller may be sending the next request right now; closed at once, that
    // request is reset unread (ECONNRESET on a reused connection) (P151). Such connections get
    // SHUTDOWN_IDLE_DRAIN_MS to bring it (answered with `Connection: close`, then closed by Node)
    // before they are reaped. Node's close() and Fastify's reap idle connections through this
    // method, so it waits for the drain too.
    const drainEndsAt = Date.now() + Math.min(this.config.shutdownIdleDrainMs, this.config.shutdownGraceMs);
    const closeIdleConnections = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => {
      if (graceOver || Date.now() >= drainEndsAt) closeIdleConnections();
    };
    // Reaped in the check phase, right after the poll phase has read every socket: a request
    // that arrived meanwhile is being handled by then, not destroyed unread (a timer runs
    // before the poll phase, when requests that came during a busy moment are still unread).
    const reap = () => {
      server.closeIdleConnections();
      if (graceOver) for (const socket of this.sockets) if (waitsOnClient(socket)) socket.destroy();
    };
    const reaper = setInterval(() => setImmediate(reap), REAP_EVERY_MS);
    const grace = setTimeout(() => {
      graceOver = true;
      const waiting = [...this.sockets].filter(waitsOnClient).length;
      if (waiting)
        this.logger.warn(
          `${waiting} connections still wait on their client ${this.config.shutdownGraceMs} ms into the shutdown: closing them`,
        );
      setImmediate(reap);
    }, this.config.shutdownGraceMs);
    reaper.unref();
    grace.unref();
    server.once('close', () => {
      clearInterval(reaper);
      clearTimeout(grace);
      server.closeIdleConnections = closeIdleConnections;
    });
    server.close();
  }
}

/**
 * True unless the connection's request has been read whole and its handler has not answered yet:
 * such a request is the service's own work, bounded by the request deadline (P41), and is
 * answered. Everything else waits on the client — a request or body still arriving, an answer
 * it does not read, an idle or upgraded connection — and is closed once the grace is over.
 * (`_httpMessage`: the response Node assigned to the socket, as its own closeIdleConnections reads it.)
 */
function waitsOnClient(socket: Socket): boolean {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return !(res && !res.headersSent && res.req.complete);
}
