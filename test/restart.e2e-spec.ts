import { KEYS, createTestApp, resetDatabase } from './support/test-app';

describe('a service restart keeps the data', () => {
  it('reads after a restart what was written before it', async () => {
    const first = await createTestApp();
    await resetDatabase(first.connection);
    await first.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'PROJECT', scopeId: 'p-restart', toolName: 'mcp_search', code: 'BACKEND_UNREACHABLE', source: 'mcp' })
      .expect(200);
    await first.close();

    const second = await createTestApp();
    try {
      const res = await second.http.get('/v1/tools/mcp_search/availability?projectId=p-restart').set('x-api-key', KEYS.dispatcher).expect(200);
      expect(res.body).toMatchObject({ status: 'DOWN', winner: { scope: 'PROJECT', scopeId: 'p-restart', code: 'BACKEND_UNREACHABLE' } });
    } finally {
      await second.close();
    }
  });
});
