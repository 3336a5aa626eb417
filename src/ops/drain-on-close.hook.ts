import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

const REAP_EVERY_MS = 50;

// Structural types: the app's Fastify is @nestjs/platform-fastify's own copy.
interface ReapableServer {
  listening: boolean;
  closeIdleConnections(): void;
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
 * therefore reaped every 50 ms; nothing runs per request. Proven by the graceful-shutdown case of
 * test/db-faults.e2e-spec.ts.
 */
@Injectable()
export class DrainOnCloseHook implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'fastify') return;
    const fastify = adapter.getInstance() as HookHost;
    fastify.addHook('preClose', (done) => {
      const server = fastify.server;
      if (!server.listening) return done();
      const timer = setInterval(() => server.closeIdleConnections(), REAP_EVERY_MS);
      timer.unref();
      server.once('close', () => clearInterval(timer));
      done();
    });
  }
}
