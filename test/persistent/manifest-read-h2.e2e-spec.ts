import { OwnServer } from '../support/own-server';
import { manifestReadCases } from '../support/manifest-read-cases';
import { commandRecordingClient } from '../support/test-database';

jest.setTimeout(120_000);

/**
 * The manifest read (P363) on the embedded default of `npm start`, mongo-java-server's H2
 * backend: the same cases as test/manifest-read.e2e-spec.ts on the memory backend, since the
 * two backends answer an aggregation's lookups through different storage.
 */
describe('the manifest read on the embedded server (H2 backend)', () => {
  let server: OwnServer;
  beforeAll(async () => {
    server = await OwnServer.start('manifest-read');
  });
  afterAll(() => server?.destroy());

  manifestReadCases(commandRecordingClient(() => server.uri('tas_test_manifest_read')));
});
