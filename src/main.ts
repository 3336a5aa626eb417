import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, fastifyOptions } from './app.setup';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { JsonLogger } from './runtime/json-logger';
import { retiredSettingsIn } from './config/retired-settings';
import { DrainOnCloseHook } from './ops/drain-on-close.hook';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = new JsonLogger(config.logLevel);
  for (const warning of retiredSettingsIn(process.env)) logger.warn(warning, 'Config');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(fastifyOptions(config)), { logger });
  configureApp(app, config);
  await app.listen(config.port, config.host);
  // At the signal itself, before Nest's shutdown hooks run, the listener closes and every answer
  // starts closing its connection (Connection: close), so keep-alive callers stop reusing
  // connections about to close and find the port closed rather than a queue about to be reset (P127, P223).
  const drain = app.get(DrainOnCloseHook);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => drain.stopAccepting());
  const address = app.getHttpServer().address(); // the bound port, also when PORT=0
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.log(`listening on ${config.host}:${port}`, 'Bootstrap');
  // Issue 36: `npm start` (scripts/start.mjs, over its IPC channel) ends its start-up with a banner of where to go.
  process.send?.({ type: 'listening', host: config.host, port, docs: config.docsEnabled, playground: config.playgroundEnabled });
}

void main();
