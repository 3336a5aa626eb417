import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const started = globalThis.__TAS_TEST_DB__;
  if (!started) return;
  await started.server.stop();
  await rm(started.dataDir, { recursive: true, force: true });
}
