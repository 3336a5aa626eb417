import { manifestReadCases } from './support/manifest-read-cases';
import { commandRecordingClient } from './support/test-database';

/** The manifest read (P363) on the e2e tier's server, the memory backend; test/persistent has it on H2. */
describe('the manifest read on the embedded server (memory backend)', () => {
  manifestReadCases(commandRecordingClient());
});
