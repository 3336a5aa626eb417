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
