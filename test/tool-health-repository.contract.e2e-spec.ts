import { ToolHealthRepository } from '../src/persistence/tool-health/tool-health.repository';
import { toolHealthRepositoryContract } from './contracts/tool-health-repository.contract';
import { TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * The ToolHealthRepository contract (P154) against the Mongo adapter on the e2e database: the
 * same behaviours the unit tier asserts of InMemoryToolHealthRepository, so the fake the service
 * specs run on cannot drift from the adapter.
 */
describe('ToolHealthRepository contract: MongoToolHealthRepository', () => {
  let t: TestApp;
  let repository: ToolHealthRepository;

  beforeAll(async () => {
    t = await createTestApp();
    repository = t.app.get(ToolHealthRepository);
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  toolHealthRepositoryContract(() => repository);
});
