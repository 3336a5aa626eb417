import { CommandStartedEvent, Db, MongoClient } from 'mongodb';

/** One database per jest worker, named so it can never be mistaken for a real one. */
export function testDatabaseUri(): string {
  const base = process.env.TEST_MONGODB_URI;
  if (!base) throw new Error('TEST_MONGODB_URI is not set: run the e2e tier through jest (its global setup starts the database)');
  const url = new URL(base);
  const name = url.pathname.replace(/^\//, '') || `tas_test_w${process.env.JEST_WORKER_ID ?? '0'}`;
  if (!/test/i.test(name)) throw new Error(`refusing database "${name}": a test database's name must contain "test"`);
  url.pathname = `/${name}`;
  return url.toString();
}

export function testDbKind(): string {
  return process.env.TEST_DB_KIND ?? 'mongo-java-server';
}

/**
 * For tests that write the database's state before the service starts: a driver client of the
 * test's own on the worker's database, every collection emptied before each test. Call it in a
 * describe block; `db` is there from its beforeAll on.
 */
export function ownDatabaseClient(): { readonly db: Db } {
  let client: MongoClient;
  const own = { db: undefined as unknown as Db };
  beforeAll(async () => {
    client = await new MongoClient(testDatabaseUri()).connect();
    own.db = client.db();
  });
  afterAll(() => client.close());
  beforeEach(async () => {
    for (const collection of await own.db.collections()) await collection.deleteMany({});
  });
  return own;
}

/**
 * For tests that count the commands the driver sends: a driver client of the test's own that
 * records every command it starts. Call it in a describe block; `db` is there from its beforeAll
 * on, and the test empties `started` once its own set-up has run. `uri` is read in that
 * beforeAll, so it may name a server an earlier beforeAll of the block started.
 */
export function commandRecordingClient(uri: () => string = testDatabaseUri): { readonly db: Db; readonly started: CommandStartedEvent[] } {
  let client: MongoClient;
  const own = { db: undefined as unknown as Db, started: [] as CommandStartedEvent[] };
  beforeAll(async () => {
    client = new MongoClient(uri(), { monitorCommands: true });
    client.on('commandStarted', (event) => own.started.push(event));
    await client.connect();
    own.db = client.db();
  });
  afterAll(() => client.close());
  return own;
}
