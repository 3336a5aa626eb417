import fastifyStatic from '@fastify/static';
import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { PLAYGROUND_ASSETS_PREFIX, playgroundAssetFolders } from './playground-assets';
import { PLAYGROUND_SCRIPT_FILE, playgroundScript } from './playground.page';

export const GRAPHQL_PATH = '/graphql';

/** What Apollo would answer with its landing page: a browser GET (HTML preferred) of the endpoint. */
export function isPlaygroundRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): boolean {
  if (request.method !== 'GET') return false;
  const [path, query = ''] = request.url.split('?', 2);
  if (path !== GRAPHQL_PATH || /(^|&)query=/.test(query)) return false;
  const accept = String(request.headers.accept ?? '');
  return accept.includes('text/html');
}

/**
 * Serves the playground's assets from the project's own node_modules through @fastify/static,
 * only the files the page loads. With PLAYGROUND_ENABLED=false (the production default) nothing
 * is served and a browser GET of /graphql answers 404 instead of Apollo's 400.
 */
@Injectable()
export class PlaygroundAssets implements OnModuleInit {
  private readonly logger = new Logger(PlaygroundAssets.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'fastify') {
      this.logger.warn('the GraphQL playground needs the Fastify adapter; not served');
      return;
    }
    const fastify = adapter.getInstance<FastifyInstance>();
    if (!this.config.playgroundEnabled) {
      fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        if (isPlaygroundRequest(request)) {
          await reply
            .code(404)
            .send({ statusCode: 404, error: 'NOT_FOUND', message: 'the GraphQL playground is disabled (PLAYGROUND_ENABLED)' });
        }
      });
      return;
    }
    const script = playgroundScript();
    // An encapsulated scope: its error handler answers @fastify/static's refusals (e.g. a `..`
    // segment, 403) with a plain 404 instead of the application's generic 500.
    void fastify.register(async (scope: FastifyInstance) => {
      scope.setErrorHandler(async (error: { statusCode?: number }, _request, reply) => {
        const clientError = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500;
        if (!clientError) this.logger.error(`playground asset failed: ${String((error as Error).message ?? error)}`);
        await reply
          .code(clientError ? 404 : 500)
          .send(
            clientError
              ? { statusCode: 404, error: 'NOT_FOUND', message: 'Not Found' }
              : { statusCode: 500, error: 'INTERNAL', message: 'internal error' },
          );
      });
      for (const folder of playgroundAssetFolders()) {
        const allowed = new Set(folder.files.map((f) => `/${f}`));
        await scope.register(fastifyStatic, {
          root: folder.root,
          prefix: `${PLAYGROUND_ASSETS_PREFIX}${folder.name}/`,
          decorateReply: false,
          index: false,
          list: false,
          maxAge: '1h',
          allowedPath: (pathName: string) => allowed.has(pathName),
        });
      }
      scope.get(`${PLAYGROUND_ASSETS_PREFIX}${PLAYGROUND_SCRIPT_FILE}`, async (_request, reply) => {
        await reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script);
      });
    });
  }
}

/** GraphiQL + Explorer on `GET /graphql`; the page itself comes from the Apollo plugin in AdminApiModule. */
@Module({ providers: [PlaygroundAssets] })
export class PlaygroundModule {}
