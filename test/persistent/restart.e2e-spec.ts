import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS, createTestApp } from '../support/test-app';
import { EmbeddedServer } from './embedded-server';

/**
 * A restart of the service and of its embedded database keeps the data (P29): write, stop the
 * service, stop the H2 server cleanly, start both again on the same file, read.
 */
jest.setTimeout(120_000);

describe('a restart keeps the data', () => {
  let dir: string;
  const servers: EmbeddedServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tas-restart-'));
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads after a restart of the service and the database what was written before it', async () => {
    const before = await EmbeddedServer.start(dir);
    servers.push(before);
    process.env.TEST_MONGODB_URI = `${before.uri}/tas_test_restart`;
    const first = await createTestApp();
    await first.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'PROJECT', scopeId: 'p-restart', toolName: 'mcp_search', code: 'BACKEND_UNREACHABLE', source: 'mcp' })
      .expect(200);
    await first.close();
    await before.stop();

    const after = await EmbeddedServer.start(dir);
    servers.push(after);
    process.env.TEST_MONGODB_URI = `${after.uri}/tas_test_restart`;
    const second = await createTestApp();
    try {
      const res = await second.http
        .get('/v1/tools/mcp_search/availability?projectId=p-restart')
        .set('x-api-key', KEYS.dispatcher)
        .expect(200);
      expect(res.body).toMatchObject({ status: 'DOWN', winner: { scope: 'PROJECT', scopeId: 'p-restart', code: 'BACKEND_UNREACHABLE' } });
    } finally {
      await second.close();
    }
  });
});
