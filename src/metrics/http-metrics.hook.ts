import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MetricsService } from './metrics.service';

// Structural types: only the members of the adapter's Fastify used here (its own types are generic).
interface HookRequest {
  method: string;
  routeOptions?: { url?: string };
}
interface HookReply {
  statusCode: number;
  elapsedTime: number;
}
interface HookHost {
  addHook(name: 'onResponse', hook: (request: HookRequest, reply: HookReply, done: () => void) => void): unknown;
}

/** Label for requests no route matched: one series, whatever URLs scanners try. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Observes every answered request in the latency histogram from a Fastify onResponse hook
 * (after the reply is sent, so it adds nothing to the latency it measures). The label is the
 * route pattern, never the raw URL: bounded cardinality whatever the ids in paths.
 */
@Injectable()
export class HttpMetricsHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'fastify') return;
    const fastify = adapter.getInstance() as HookHost;
    fastify.addHook('onResponse', (request, reply, done) => {
      this.metrics.observeRequest(request.method, request.routeOptions?.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
}
