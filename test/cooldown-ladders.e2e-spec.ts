import { KEYS, TestApp, createTestApp } from './support/test-app';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('cooldown ladders (D9) through the checker path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  // A named user: user-class cooldowns at a shared scope must name theirs (D18, P50).
  const key = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'mcp_search', errorSignature: 'http-502', userId: 'u-1' };
  const set = async (classification: string, extra: object = {}) => {
    const res = await t.http
      .post('/v1/cooldowns')
      .set('x-api-key', KEYS.dispatcher)
      .send({ ...key, classification, ...extra })
      .expect(200);
    return res.body.cooldowns.find((c: { errorSignature: string }) => c.errorSignature === key.errorSignature);
  };
  /** Writes once per step, each just after the previous window expired; returns the windows. */
  const ladder = async (classification: string, steps: number) => {
    const windows: number[] = [];
    for (let i = 0; i < steps; i++) {
      const entry = await set(classification);
      windows.push(entry.windowMs);
      t.clock.set(new Date(new Date(entry.nextSpawnAllowedAt).getTime() + S));
    }
    return windows;
  };

  it('INTERMITTENT: 30 s, 2 min, 8 min, 32 min, 2 h, 2 h', async () => {
    expect(await ladder('INTERMITTENT', 6)).toEqual([30 * S, 2 * MIN, 8 * MIN, 32 * MIN, 2 * H, 2 * H]);
  });

  it('USER_SPECIFIC_TECHNICAL doubles from 15 min up to its 24 h cap', async () => {
    expect(await ladder('USER_SPECIFIC_TECHNICAL', 9)).toEqual([15 * MIN, 30 * MIN, H, 2 * H, 4 * H, 8 * H, 16 * H, 24 * H, 24 * H]);
  });

  it.each([
    ['USER_PERMISSION', 24 * H],
    ['USER_INPUT', 5 * MIN],
  ])('%s stays constant', async (classification, window) => {
    expect(await ladder(classification, 3)).toEqual([window, window, window]);
  });

  it('a write while active changes neither window nor expiry', async () => {
    const first = await set('INTERMITTENT');
    t.clock.advance(10 * S);
    const again = await set('USER_INPUT');
    expect(again).toMatchObject({
      windowMs: first.windowMs,
      nextSpawnAllowedAt: first.nextSpawnAllowedAt,
      lastClassification: 'USER_INPUT',
    });
  });

  it('editing a stored windowMs changes the next step', async () => {
    const first = await set('INTERMITTENT');
    // By hand, moving the version as every edit of a document must (D3, P354).
    await t.connection
      .db!.collection('tool_health')
      .updateOne(
        { scope: 'PROJECT', scopeId: 'p-1', toolName: 'mcp_search' },
        { $set: { 'cooldowns.0.windowMs': 10 * MIN }, $inc: { version: 1 } },
      );
    t.clock.set(new Date(new Date(first.nextSpawnAllowedAt).getTime() + S));
    expect((await set('INTERMITTENT')).windowMs).toBe(40 * MIN);
  });

  it('the sweep removes only entries expired longer than the grace period', async () => {
    const old = await set('USER_INPUT');
    await t.http
      .post('/v1/cooldowns')
      .set('x-api-key', KEYS.dispatcher)
      .send({ ...key, errorSignature: 'http-429', classification: 'INTERMITTENT' })
      .expect(200);
    t.clock.set(new Date(new Date(old.nextSpawnAllowedAt).getTime() + t.config.cooldownGraceMs - MIN));
    const recent = await t.http
      .post('/v1/cooldowns')
      .set('x-api-key', KEYS.dispatcher)
      .send({ ...key, errorSignature: 'http-500', classification: 'USER_PERMISSION' })
      .expect(200);
    expect(recent.body.cooldowns).toHaveLength(3);
    t.clock.advance(2 * MIN);

    const swept = await t.http.post('/v1/cooldowns/sweep').set('x-api-key', KEYS.admin).expect(200);
    expect(swept.body).toEqual({ documents: 1, removed: 2 });
    const doc = await t.http.get('/v1/entries?scope=PROJECT&scopeId=p-1&toolName=mcp_search').set('x-api-key', KEYS.admin).expect(200);
    expect(doc.body.cooldowns.map((c: { errorSignature: string }) => c.errorSignature)).toEqual(['http-500']);
  });
});
