import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CONSOLE_ASSETS_PREFIX,
  CONSOLE_PATH,
  ConsoleAssetFile,
  consoleContentSecurityPolicy,
  consoleHtml,
  loadConsoleAssets,
} from './console-page';
import { faviconIco } from './favicon';

/**
 * The operator console (D26, P170): `GET /console` (the page, open like the playground's page —
 * every operation it makes carries the key its user types) and `GET /console/assets/<file>` (the
 * bundle built from console/src), and `/favicon.ico` (favicon.ts). On in production too (D17). Plain Fastify routes, like the
 * playground's assets: no key guard, no body.
 */
@Injectable()
export class ConsoleRoutes implements OnModuleInit {
  private readonly logger = new Logger(ConsoleRoutes.name);

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'fastify') {
      this.logger.warn('the operator console needs the Fastify adapter; not served');
      return;
    }
    const fastify = adapter.getInstance<FastifyInstance>();
    const assets = loadConsoleAssets();
    if (!assets) this.logger.warn('the operator console is not built (npm run console:build): /console says so');
    const html = consoleHtml(assets !== null);
    fastify.get(CONSOLE_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      await reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', consoleContentSecurityPolicy(request.headers.host))
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(html);
    });
    const favicon = faviconIco();
    fastify.get('/favicon.ico', async (_request: FastifyRequest, reply: FastifyReply) => {
      await reply.header('content-type', 'image/x-icon').header('cache-control', 'public, max-age=86400').send(favicon);
    });
    fastify.get(`${CONSOLE_ASSETS_PREFIX}:file`, async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
      const asset = assets?.get(request.params.file as ConsoleAssetFile);
      if (!asset) return reply.code(404).send({ statusCode: 404, error: 'NOT_FOUND', message: 'Not Found' });
      return reply
        .header('content-type', asset.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .send(asset.body);
    });
  }
}

@Module({ providers: [ConsoleRoutes] })
export class ConsoleModule {}
