/**
 * Writes openapi.json — the REST API's OpenAPI document, exactly as `/docs/openapi.json` serves
 * it — without a database: Nest builds AppModule's module graph in preview mode (providers are
 * not instantiated, so nothing connects), and the document is read off the controllers' metadata
 * by the same function the running app uses (src/openapi/served-document.ts). GraphQLModule asks
 * to be built even in preview mode, and its options need the configuration and the key service,
 * so those two modules are built too, from a fixed environment (the document reads none of it).
 * test/contract-openapi.e2e-spec.ts fails when the served document differs from the committed one.
 *
 *   npm run openapi:generate             # writes ./openapi.json
 *   npm run openapi:generate -- out.json # writes elsewhere
 */
import 'reflect-metadata';
import { InitializeOnPreviewAllowlist, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeArtifact } from './artifact-file';

/** The one way a document becomes the text of openapi.json. */
export function printOpenApiFile(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** What the configuration needs to load; nothing here reaches the document. */
const FIXED_ENVIRONMENT = {
  NODE_ENV: 'production',
  MONGODB_URI: 'mongodb://127.0.0.1:1/unused',
  API_KEYS: `generator:admin:${'0'.repeat(64)}`,
};

export async function buildServedDocument(): Promise<object> {
  // The machine's own settings never reach the document: only these (and where programs are) remain.
  for (const name of Object.keys(process.env)) if (name !== 'PATH' && name !== 'HOME') delete process.env[name];
  Object.assign(process.env, FIXED_ENVIRONMENT);
  const { AppModule } = await import('../src/app.module');
  const { ConfigModule } = await import('../src/config/config.module');
  const { AuthModule } = await import('../src/auth/auth.module');
  InitializeOnPreviewAllowlist.add(ConfigModule);
  InitializeOnPreviewAllowlist.add(AuthModule);
  const { servedOpenApiDocument } = await import('../src/openapi/served-document');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    preview: true,
    logger: ['error'],
    abortOnError: false,
  });
  try {
    return servedOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

if (require.main === module) writeArtifact('openapi.json', async () => printOpenApiFile(await buildServedDocument()));
