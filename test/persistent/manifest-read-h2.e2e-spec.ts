import { CommandStartedEvent, Db, MongoClient } from 'mongodb';
import { OwnServer } from '../support/own-server';
import { manifestReadCases } from '../support/manifest-read-cases';

jest.setTimeout(120_000);

/**
 * The manifest read (P363) on the embedded default of `npm start`, mongo-java-server's H2
 * backend: the same cases as test/manifest-read.e2e-spec.ts on the memory backend, since the
 * two backends answer an aggregation's lookups through different storage.
 */
describe('the manifest read on the embedded server (H2 backend)', () => {
  let server: OwnServer;
  let client: MongoClient;
  const own = { db: undefined as unknown as Db, started: [] as CommandStartedEvent[] };

  beforeAll(async () => {
    server = await OwnServer.start('manifest-read');
    client = new MongoClient(server.uri('tas_test_manifest_read'), { monitorCommands: true });
    client.on('commandStarted', (event) => own.started.push(event));
    await client.connect();
    own.db = client.db();
  });
  afterAll(async () => {
    await client?.close();
    await server?.destroy();
  });

  manifestReadCases(own);
});
