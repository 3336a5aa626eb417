// Starts a throwaway MongoDB-protocol server for the e2e tier (D2): FerretDB by default,
// mongo-java-server with TEST_DB=mongo-java-server. TEST_MONGODB_URI set → use it, start nothing.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabase } from '../../scripts/db/servers.mjs';

export default async function globalSetup() {
  if (process.env.TEST_MONGODB_URI) {
    process.env.TEST_DB_KIND ??= 'external';
    return;
  }
  const kind = process.env.TEST_DB ?? 'ferretdb';
  const dataDir = await mkdtemp(join(tmpdir(), 'tas-test-db-'));
  const server = await startDatabase(kind, { dataDir });
  globalThis.__TAS_TEST_DB__ = { server, dataDir };
  process.env.TEST_MONGODB_URI = server.uri;
  process.env.TEST_DB_KIND = kind;
}
