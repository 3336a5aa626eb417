import { MongoClient } from 'mongodb';
import { testDatabaseUri } from '../support/test-database';

/**
 * Every e2e file starts on an empty database. The files of one jest worker share its database,
 * and what one file's last test wrote is still there when the next file's app starts: an app
 * reads some of it at once (the maintenance snapshot), so a window left by one file was in force
 * for the next file's first calls — until its test emptied the database, and for a second after.
 * Runs before the file's own beforeAll, so before its app exists.
 */
beforeAll(async () => {
  const client = await MongoClient.connect(testDatabaseUri(), { serverSelectionTimeoutMS: 5_000 });
  try {
    const collections = await client.db().collections();
    await Promise.all(collections.map((c) => c.deleteMany({})));
  } finally {
    await client.close();
  }
});
