// Starts a throwaway MongoDB-protocol server for the e2e tier (D2): mongo-java-server's memory
// backend by default, another kind with TEST_DB=<kind>. TEST_MONGODB_URI set → use it, start nothing.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabase } from '../../scripts/db/servers.mjs';
import { buildConsole, consoleBuildNeeded } from '../../scripts/build-console.mjs';

export default async function globalSetup() {
  // The operator console's bundle (P170): the console tests load it in Chromium, and the service serves it.
  if (consoleBuildNeeded()) await buildConsole();
  if (process.env.TEST_MONGODB_URI) {
    process.env.TEST_DB_KIND ??= 'external';
    return;
  }
  const kind = process.env.TEST_DB ?? 'mongo-java-server';
  const dataDir = await mkdtemp(join(tmpdir(), 'tas-test-db-'));
  const server = await startDatabase(kind, { dataDir });
  globalThis.__TAS_TEST_DB__ = { server, dataDir };
  process.env.TEST_MONGODB_URI = server.uri;
  process.env.TEST_DB_KIND = kind;
}
