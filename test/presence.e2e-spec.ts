import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * P81: the manifest read asks only for the ids its scopes' presence lists name. These tests pin
 * the two ways a document could escape the lists: another instance's first insert, and a
 * database written before the lists existed (backfilled once at startup).
 */
describe('presence lists behind the manifest read (P81)', () => {
  const apps: TestApp[] = [];
  const start = async () => {
    const t = await createTestApp();
    apps.push(t);
    return t;
  };
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });

  const annotate = (t: TestApp, names: string[]) =>
    t.http
      .post('/v1/manifest/annotate')
      .set('x-api-key', KEYS.dispatcher)
      .send({ tools: names.map((name) => ({ name, description: `Does ${name}.` })), context: { userId: 'alice', tenantId: 't-1' } })
      .expect(200)
      .then((res) => Object.fromEntries(res.body.tools.map((x: { name: string; status: string }) => [x.name, x.status])));
  const markDown = (t: TestApp, body: object) =>
    t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ code: 'BACKEND_FAILED', source: 'probe', ...body })
      .expect(200);

  it("sees another instance's first insert at once", async () => {
    const a = await start();
    await resetDatabase(a.connection);
    const b = await start();
    expect(await annotate(b, ['jira', 'github'])).toEqual({ jira: 'OK', github: 'OK' });
    await markDown(a, { scope: 'TENANT', scopeId: 't-1', toolName: 'jira' });
    await markDown(a, { scope: 'GLOBAL', toolName: 'github' });
    expect(await annotate(b, ['jira', 'github'])).toEqual({ jira: 'DOWN', github: 'DOWN' });
  });

  it('answers each of many concurrent annotations from its own scopes only (the lists are read together, P323)', async () => {
    const t = await start();
    await resetDatabase(t.connection);
    // Tenant t-k has tool_k DOWN; every tenant asks for every tool at the same moment, so their
    // presence-list reads share queries, and each must still see only its own tenant's outage.
    const tenants = Array.from({ length: 8 }, (_, k) => k);
    for (const k of tenants) await markDown(t, { scope: 'TENANT', scopeId: `t-${k}`, toolName: `tool_${k}` });
    const names = tenants.map((k) => `tool_${k}`);
    const answers = await Promise.all(
      tenants.map((k) =>
        t.http
          .post('/v1/manifest/annotate/changes')
          .set('x-api-key', KEYS.dispatcher)
          .send({ tools: names.map((name) => ({ name })), context: { userId: `u-${k}`, tenantId: `t-${k}` } })
          .expect(200)
          .then((res) => res.body.tools.map((x: { name: string; status: string }) => `${x.name}:${x.status}`)),
      ),
    );
    expect(answers).toEqual(tenants.map((k) => [`tool_${k}:DOWN`]));
  });

  it('backfills the lists of a database written before they existed, once, at startup', async () => {
    const keeper = await start();
    await resetDatabase(keeper.connection);
    await markDown(keeper, { scope: 'USER', scopeId: 'alice', toolName: 'jira' });
    await markDown(keeper, { scope: 'GLOBAL', toolName: 'github' });
    const presence = keeper.connection.collection('tool_health_presence');

    // An older database: the documents, and lists marked done that name none of them — the read
    // then misses the documents, which is what the backfill exists for.
    await presence.deleteMany({});
    await presence.insertOne({ _id: 'backfilled' as never, tools: [] });
    const blind = await start();
    expect(await annotate(blind, ['jira', 'github'])).toEqual({ jira: 'OK', github: 'OK' });

    // No lists and no marker: the next instance to start fills them before it serves.
    await presence.deleteMany({});
    const b = await start();
    expect(await annotate(b, ['jira', 'github'])).toEqual({ jira: 'DOWN', github: 'DOWN' });
    const lists = await b.connection.collection('tool_health_presence').find({}).sort({ _id: 1 }).toArray();
    expect(lists.map((l) => [l._id, l.tools])).toEqual([
      ['GLOBAL|%00', ['github']],
      ['USER|alice', ['jira']],
      ['backfilled', []],
    ]);
  });
});
