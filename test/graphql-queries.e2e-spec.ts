import { KEYS, TestApp, createTestApp } from './support/test-app';

/** Every query of the admin API on a real database, as audit-reader (D17: queries only). */
describe('GraphQL queries', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  /** POSTs an operation; fails the test on any GraphQL error and returns `data`. */
  async function gql<T = any>(query: string, variables: Record<string, unknown> = {}, key: string = KEYS.audit): Promise<T> {
    const res = await t.http.post('/graphql').set('x-api-key', key).send({ query, variables }).expect(200);
    if (res.body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(res.body.errors)}`);
    return res.body.data as T;
  }
  const admin = (query: string, variables: Record<string, unknown> = {}) => gql(query, variables, KEYS.admin);

  const markToolUnavailable = (input: Record<string, unknown>) =>
    admin('mutation($input: MarkUnavailableInput!) { markToolUnavailable(input: $input) { id } }', {
      input: { code: 'BACKEND_FAILED', ...input },
    });
  const markToolIntermittent = (input: Record<string, unknown>) =>
    admin('mutation($input: MarkIntermittentInput!) { markToolIntermittent(input: $input) { id } }', { input });
  const setCooldown = (input: Record<string, unknown>) =>
    admin('mutation($input: SetCooldownInput!) { setCooldown(input: $input) { id } }', { input });

  const LIST = `query($filter: ToolHealthFilter, $first: Int!, $after: String) {
    toolHealths(filter: $filter, first: $first, after: $after) {
      edges { cursor node { id scope scopeId toolName status } }
      pageInfo { hasNextPage endCursor }
    }
  }`;
  type Page = {
    toolHealths: {
      edges: { cursor: string; node: { id: string; toolName: string; scope: string; scopeId: string | null; status: string } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  };

  async function listAll(filter: Record<string, unknown> = {}): Promise<string[]> {
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Page = await gql<Page>(LIST, { filter, first: 100, after });
      ids.push(...page.toolHealths.edges.map((e) => e.node.id));
      if (!page.toolHealths.pageInfo.hasNextPage) return ids;
      after = page.toolHealths.pageInfo.endCursor;
    }
  }

  describe('toolHealth', () => {
    it('returns one document by key with its history, cooldowns and pin', async () => {
      await markToolUnavailable({
        scope: 'PROJECT',
        scopeId: 'p-1',
        toolName: 'mcp_search',
        source: 'mcp-router',
        note: 'connection closed',
      });
      await setCooldown({
        scope: 'PROJECT',
        scopeId: 'p-1',
        toolName: 'mcp_search',
        errorSignature: 'http-502',
        classification: 'INTERMITTENT',
      });
      const data = await gql(`{
        toolHealth(scope: PROJECT, scopeId: "p-1", toolName: "mcp_search") {
          id scope scopeId toolName status code version since
          lastDiagnosis { classification code by note }
          history { status by note }
          cooldowns { errorSignature userId hits windowMs lastClassification nextSpawnAllowedAt }
          pin { status }
        }
      }`);
      expect(data.toolHealth).toMatchObject({
        scope: 'PROJECT',
        scopeId: 'p-1',
        toolName: 'mcp_search',
        status: 'DOWN',
        code: 'BACKEND_FAILED',
        version: 2,
        since: '2026-05-23T14:00:00.000Z',
        lastDiagnosis: { classification: null, code: 'BACKEND_FAILED', by: 'system:mcp-router', note: 'connection closed' },
        history: [{ status: 'DOWN', by: 'system:mcp-router' }],
        cooldowns: [
          {
            errorSignature: 'http-502',
            userId: null,
            hits: 0,
            windowMs: 30_000,
            lastClassification: 'INTERMITTENT',
            nextSpawnAllowedAt: '2026-05-23T14:00:30.000Z',
          },
        ],
        pin: null,
      });
    });

    it('is NOT_FOUND for a key with no document', async () => {
      const res = await t.http
        .post('/graphql')
        .set('x-api-key', KEYS.audit)
        .send({ query: '{ toolHealth(scope: GLOBAL, toolName: "nothing") { id } }' })
        .expect(200);
      expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('toolHealths', () => {
    it('pages through every document once, in id order, while documents are written between pages', async () => {
      const tools = Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, '0')}`);
      for (const toolName of tools) await markToolUnavailable({ scope: 'PROJECT', scopeId: 'p-1', toolName });
      const before = tools.map((name) => `PROJECT|p-1|${name}`);

      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const page: Page = await gql<Page>(LIST, { filter: { scope: 'PROJECT' }, first: 7, after });
        expect(page.toolHealths.edges.length).toBeLessThanOrEqual(7);
        seen.push(...page.toolHealths.edges.map((e) => e.node.id));
        pages++;
        // Writes between pages: a new document before the cursor, one after it, updates to
        // documents on later pages and on pages already read.
        await markToolUnavailable({ scope: 'PROJECT', scopeId: 'p-1', toolName: `a_new_${pages}` });
        await markToolUnavailable({ scope: 'PROJECT', scopeId: 'p-1', toolName: `z_new_${pages}` });
        await markToolIntermittent({ scope: 'PROJECT', scopeId: 'p-1', toolName: 't20' });
        await markToolIntermittent({ scope: 'PROJECT', scopeId: 'p-1', toolName: 't01' });
        if (!page.toolHealths.pageInfo.hasNextPage) break;
        after = page.toolHealths.pageInfo.endCursor;
        expect(after).toBe(page.toolHealths.edges[page.toolHealths.edges.length - 1].cursor);
      }

      expect(new Set(seen).size).toBe(seen.length); // no duplicates
      for (const id of before) expect(seen).toContain(id); // no gaps
      expect(seen).toEqual([...seen].sort()); // one order: by id
      // New documents behind the cursor are not seen, those ahead of it are (the list is live, not a snapshot).
      expect(seen.filter((id) => id.includes('a_new_'))).toEqual([]);
      expect(seen).toContain('PROJECT|p-1|z_new_1');
      expect(pages).toBeGreaterThanOrEqual(4);
    });

    it('says where the list ends: an empty page keeps the cursor, hasNextPage false', async () => {
      await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
      await markToolUnavailable({ scope: 'GLOBAL', toolName: 'confluence' });
      const first: Page = await gql<Page>(LIST, { first: 2 });
      expect(first.toolHealths.edges.map((e) => e.node.toolName)).toEqual(['confluence', 'jira']);
      expect(first.toolHealths.pageInfo.hasNextPage).toBe(false);
      const empty: Page = await gql<Page>(LIST, { first: 2, after: first.toolHealths.pageInfo.endCursor });
      expect(empty.toolHealths).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: first.toolHealths.pageInfo.endCursor } });
      const none: Page = await gql<Page>(LIST, { first: 5, filter: { toolName: 'nothing' } });
      expect(none.toolHealths.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    });

    describe('filters', () => {
      beforeEach(async () => {
        await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
        await markToolIntermittent({ scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira' });
        await setCooldown({
          scope: 'PROJECT',
          scopeId: 'p-1',
          toolName: 'confluence',
          errorSignature: 'http-429',
          classification: 'INTERMITTENT',
          durationMs: 3_600_000,
        });
        await setCooldown({
          scope: 'USER',
          scopeId: 'alice',
          toolName: 'jira',
          errorSignature: 'http-400',
          classification: 'USER_INPUT',
          userId: 'alice',
        });
        await markToolUnavailable({ scope: 'PROJECT', scopeId: 'p-2', toolName: 'jira' });
        t.clock.advance(10 * 60_000); // alice's 5-minute USER_INPUT cooldown is over, the 1 h one runs
      });

      it.each([
        ['scope', { scope: 'PROJECT' }, ['PROJECT|p-1|confluence', 'PROJECT|p-1|jira', 'PROJECT|p-2|jira']],
        ['scopeId', { scopeId: 'p-1' }, ['PROJECT|p-1|confluence', 'PROJECT|p-1|jira']],
        ['toolName', { toolName: 'jira' }, ['GLOBAL|%00|jira', 'PROJECT|p-1|jira', 'PROJECT|p-2|jira', 'USER|alice|jira']],
        ['status', { status: 'DOWN' }, ['GLOBAL|%00|jira', 'PROJECT|p-2|jira']],
        ['status OK', { status: 'OK' }, ['PROJECT|p-1|confluence', 'USER|alice|jira']],
        ['hasActiveCooldown: true', { hasActiveCooldown: true }, ['PROJECT|p-1|confluence']],
        [
          'hasActiveCooldown: false',
          { hasActiveCooldown: false },
          ['GLOBAL|%00|jira', 'PROJECT|p-1|jira', 'PROJECT|p-2|jira', 'USER|alice|jira'],
        ],
        ['scope + status', { scope: 'PROJECT', status: 'DOWN' }, ['PROJECT|p-2|jira']],
        ['scope + scopeId + toolName', { scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira' }, ['PROJECT|p-1|jira']],
        ['nothing', {}, ['GLOBAL|%00|jira', 'PROJECT|p-1|confluence', 'PROJECT|p-1|jira', 'PROJECT|p-2|jira', 'USER|alice|jira']],
      ])('by %s', async (_, filter, expected) => {
        expect(await listAll(filter)).toEqual(expected);
      });

      it('pages within a filter', async () => {
        const one: Page = await gql<Page>(LIST, { filter: { toolName: 'jira' }, first: 3 });
        expect(one.toolHealths.pageInfo.hasNextPage).toBe(true);
        const two: Page = await gql<Page>(LIST, { filter: { toolName: 'jira' }, first: 3, after: one.toolHealths.pageInfo.endCursor });
        expect([...one.toolHealths.edges, ...two.toolHealths.edges].map((e) => e.node.id)).toEqual(await listAll({ toolName: 'jira' }));
        expect(two.toolHealths.pageInfo.hasNextPage).toBe(false);
      });
    });
  });

  describe('effectiveHealth', () => {
    const EFFECTIVE = `query($toolName: String!, $context: CallContextInput) {
      effectiveHealth(toolName: $toolName, context: $context) {
        toolName status retesting reason
        winner { id scope }
        considered { scope scopeId status retesting pinned }
        trace { reason matched { scope scopeId by since until pinned code } shadowed { scope scopeId status } }
      }
    }`;

    it('gives the narrowest live problem with the reason trace', async () => {
      await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira', source: 'probe' });
      t.clock.advance(60_000);
      await markToolIntermittent({
        scope: 'PROJECT',
        scopeId: 'p-1',
        toolName: 'jira',
        source: 'probe',
        expectedRecoveryAt: '2026-05-23T15:00:00.000Z',
      });
      const data = await gql(EFFECTIVE, { toolName: 'jira', context: { userId: 'alice', projectId: 'p-1' } });
      expect(data.effectiveHealth).toEqual({
        toolName: 'jira',
        status: 'DEGRADED',
        retesting: false,
        reason: 'LIVE_PROBLEM',
        winner: { id: 'PROJECT|p-1|jira', scope: 'PROJECT' },
        considered: [
          { scope: 'PROJECT', scopeId: 'p-1', status: 'DEGRADED', retesting: false, pinned: false },
          { scope: 'GLOBAL', scopeId: null, status: 'DOWN', retesting: false, pinned: false },
        ],
        trace: {
          reason: 'LIVE_PROBLEM',
          matched: {
            scope: 'PROJECT',
            scopeId: 'p-1',
            by: 'system:probe',
            since: '2026-05-23T14:01:00.000Z',
            until: '2026-05-23T15:00:00.000Z',
            pinned: false,
            code: null,
          },
          shadowed: [{ scope: 'GLOBAL', scopeId: null, status: 'DOWN' }],
        },
      });
    });

    it('reads RETESTING once the expected recovery has come, and the default OK with no entry', async () => {
      await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira', expectedRecoveryAt: '2026-05-23T14:30:00.000Z' });
      t.clock.set('2026-05-23T14:31:00.000Z');
      const retesting = await gql(EFFECTIVE, { toolName: 'jira' });
      expect(retesting.effectiveHealth).toMatchObject({
        status: 'DOWN',
        retesting: true,
        reason: 'RETESTING',
        trace: { reason: 'RETESTING' },
      });
      const unknown = await gql(EFFECTIVE, { toolName: 'never_seen', context: { sessionId: 's-1' } });
      expect(unknown.effectiveHealth).toEqual({
        toolName: 'never_seen',
        status: 'OK',
        retesting: false,
        reason: 'DEFAULT_OK',
        winner: null,
        considered: [],
        trace: { reason: 'DEFAULT_OK', matched: null, shadowed: [] },
      });
    });

    it('shows a pin winning over a wider DOWN (D4b)', async () => {
      await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
      await admin(
        'mutation { pinToolHealth(input: {scope: TENANT, scopeId: "t-1", toolName: "jira", status: OK, until: "2026-05-24T00:00:00Z", reason: "own backend"}) { id } }',
      );
      const data = await gql(EFFECTIVE, { toolName: 'jira', context: { tenantId: 't-1' } });
      expect(data.effectiveHealth).toMatchObject({
        status: 'OK',
        reason: 'PINNED',
        trace: {
          matched: { scope: 'TENANT', scopeId: 't-1', by: 'admin:admin', pinned: true, until: '2026-05-24T00:00:00.000Z' },
          shadowed: [{ scope: 'GLOBAL', status: 'DOWN' }],
        },
      });
    });
  });

  it("toolOverview counts a tool's entries by status and by scope", async () => {
    await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
    await markToolUnavailable({ scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira' });
    await markToolIntermittent({ scope: 'PROJECT', scopeId: 'p-2', toolName: 'jira' });
    await setCooldown({
      scope: 'USER',
      scopeId: 'alice',
      toolName: 'jira',
      errorSignature: 'http-403',
      classification: 'USER_PERMISSION',
      userId: 'alice',
    });
    await markToolUnavailable({ scope: 'GLOBAL', toolName: 'confluence' });
    const data = await gql(
      `{ toolOverview(toolName: "jira") { toolName total byStatus { status count } byScope { scope total byStatus { status count } } } }`,
    );
    const z = (ok: number, degraded: number, down: number) => [
      { status: 'OK', count: ok },
      { status: 'DEGRADED', count: degraded },
      { status: 'DOWN', count: down },
    ];
    expect(data.toolOverview).toEqual({
      toolName: 'jira',
      total: 4,
      byStatus: z(1, 1, 2),
      byScope: [
        { scope: 'SESSION', total: 0, byStatus: z(0, 0, 0) },
        { scope: 'USER', total: 1, byStatus: z(1, 0, 0) },
        { scope: 'PROJECT', total: 2, byStatus: z(0, 1, 1) },
        { scope: 'TENANT', total: 0, byStatus: z(0, 0, 0) },
        { scope: 'GLOBAL', total: 1, byStatus: z(0, 0, 1) },
      ],
    });
  });

  it('cooldownsDueForSweep lists entries expired longer than the grace period, and sweepCooldowns removes them', async () => {
    await setCooldown({
      scope: 'USER',
      scopeId: 'alice',
      toolName: 'jira',
      errorSignature: 'http-400',
      classification: 'USER_INPUT',
      userId: 'alice',
    });
    await setCooldown({
      scope: 'USER',
      scopeId: 'alice',
      toolName: 'jira',
      errorSignature: 'http-403',
      classification: 'USER_PERMISSION',
      userId: 'alice',
    });
    const DUE = '{ cooldownsDueForSweep(limit: 10) { toolHealth { id } cooldowns { errorSignature nextSpawnAllowedAt } } }';
    expect((await gql(DUE)).cooldownsDueForSweep).toEqual([]);
    t.clock.advance(24 * 3600_000 + 10 * 60_000); // USER_INPUT (5 min) + grace (24 h) are over; USER_PERMISSION (24 h) is within grace
    expect((await gql(DUE)).cooldownsDueForSweep).toEqual([
      {
        toolHealth: { id: 'USER|alice|jira' },
        cooldowns: [{ errorSignature: 'http-400', nextSpawnAllowedAt: '2026-05-23T14:05:00.000Z' }],
      },
    ]);
    expect((await admin('mutation { sweepCooldowns { documents removed } }')).sweepCooldowns).toEqual({ documents: 1, removed: 1 });
    expect((await gql(DUE)).cooldownsDueForSweep).toEqual([]);
    const left = await gql('{ toolHealth(scope: USER, scopeId: "alice", toolName: "jira") { cooldowns { errorSignature } } }');
    expect(left.toolHealth.cooldowns).toEqual([{ errorSignature: 'http-403' }]);
  });

  it('dueForProbe lists DOWN entries without an estimate nobody has checked for a while (D11)', async () => {
    await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
    await markToolUnavailable({ scope: 'GLOBAL', toolName: 'confluence', expectedRecoveryAt: '2026-05-23T18:00:00.000Z' });
    const DUE = '{ dueForProbe(limit: 10) { id status lastCheckedAt } }';
    expect((await gql(DUE)).dueForProbe).toEqual([]);
    t.clock.advance(31 * 60_000);
    expect((await gql(DUE)).dueForProbe).toEqual([{ id: 'GLOBAL|%00|jira', status: 'DOWN', lastCheckedAt: '2026-05-23T14:00:00.000Z' }]);
  });

  it("healthEvents(docId) reads one entry's events, however many others came after them", async () => {
    await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
    t.clock.advance(1000);
    await setCooldown({ scope: 'GLOBAL', toolName: 'jira', errorSignature: 'http-502', classification: 'INTERMITTENT' });
    for (let i = 0; i < 30; i++) {
      t.clock.advance(1000);
      await markToolUnavailable({ scope: 'GLOBAL', toolName: `other_${i}` });
    }
    const ONE = `query($docId: String) { healthEvents(last: 5, docId: $docId) { edges { node { type docId effectiveStatus tenantId } } } }`;
    const mine = await gql(ONE, { docId: 'GLOBAL|%00|jira' });
    expect(mine.healthEvents.edges.map((e: any) => e.node)).toEqual([
      { type: 'STATUS_CHANGED', docId: 'GLOBAL|%00|jira', effectiveStatus: 'DOWN', tenantId: null },
      { type: 'COOLDOWN_SET', docId: 'GLOBAL|%00|jira', effectiveStatus: 'DOWN', tenantId: null },
    ]);
    const all = await gql(ONE, {});
    expect(all.healthEvents.edges.map((e: any) => e.node.docId)).not.toContain('GLOBAL|%00|jira');
  });

  it('healthEvents reads the outbox by cursor, with typed payloads', async () => {
    const EVENTS = `query($after: String, $first: Int!) {
      healthEvents(after: $after, first: $first) {
        edges { cursor node { id type docId scope scopeId toolName status at position
          payload {
            __typename
            ... on StatusChangedPayload { previousStatus code expectedRecoveryAt }
            ... on CooldownPayload { errorSignature userId windowMs lastClassification nextSpawnAllowedAt }
            ... on InboxItemPayload { userId classification by note }
          }
        } }
        pageInfo { hasNextPage endCursor }
      }
    }`;
    await markToolUnavailable({ scope: 'GLOBAL', toolName: 'jira' });
    t.clock.advance(1000);
    await setCooldown({ scope: 'GLOBAL', toolName: 'jira', errorSignature: 'http-502', classification: 'INTERMITTENT' });
    t.clock.advance(1000);
    await admin(
      'mutation { recordDiagnosis(input: {scope: USER, scopeId: "alice", toolName: "jira", classification: USER_SPECIFIC_TECHNICAL, note: "token expired"}) { id } }',
    );

    const one = await gql(EVENTS, { first: 2 });
    expect(one.healthEvents.pageInfo.hasNextPage).toBe(true);
    expect(one.healthEvents.edges.map((e: any) => [e.node.type, e.node.payload.__typename])).toEqual([
      ['STATUS_CHANGED', 'StatusChangedPayload'],
      ['COOLDOWN_SET', 'CooldownPayload'],
    ]);
    expect(one.healthEvents.edges[0].node).toMatchObject({
      id: expect.stringMatching(/^GLOBAL\|%00\|jira:[A-Za-z0-9_-]+:1:STATUS_CHANGED$/),
      docId: 'GLOBAL|%00|jira',
      scope: 'GLOBAL',
      scopeId: null,
      toolName: 'jira',
      status: 'DOWN',
      at: '2026-05-23T14:00:00.000Z',
      payload: { previousStatus: null, code: 'BACKEND_FAILED', expectedRecoveryAt: null },
    });
    expect(one.healthEvents.edges[1].node.payload).toEqual({
      __typename: 'CooldownPayload',
      errorSignature: 'http-502',
      userId: null,
      windowMs: 30_000,
      lastClassification: 'INTERMITTENT',
      nextSpawnAllowedAt: '2026-05-23T14:00:31.000Z',
    });
    expect(one.healthEvents.pageInfo.endCursor).toBe(one.healthEvents.edges[1].cursor);

    const two = await gql(EVENTS, { first: 10, after: one.healthEvents.pageInfo.endCursor });
    expect(two.healthEvents.edges.map((e: any) => e.node.type).sort()).toEqual(['INBOX_ITEM', 'STATUS_CHANGED']);
    const inbox = two.healthEvents.edges.find((e: any) => e.node.type === 'INBOX_ITEM').node.payload;
    expect(inbox).toEqual({
      __typename: 'InboxItemPayload',
      userId: 'alice',
      classification: 'USER_SPECIFIC_TECHNICAL',
      by: 'admin:admin',
      note: 'token expired',
    });
    expect(two.healthEvents.pageInfo.hasNextPage).toBe(false);

    const three = await gql(EVENTS, { first: 10, after: two.healthEvents.pageInfo.endCursor });
    expect(three.healthEvents).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: two.healthEvents.pageInfo.endCursor } });
  });

  it('tenantSettings gives the history limit and its effective value', async () => {
    const SETTINGS = '{ tenantSettings(tenantId: "t-1") { tenantId historyLimit effectiveHistoryLimit updatedAt updatedBy } }';
    expect((await gql(SETTINGS)).tenantSettings).toEqual({
      tenantId: 't-1',
      historyLimit: null,
      effectiveHistoryLimit: 20,
      updatedAt: null,
      updatedBy: null,
    });
    await admin('mutation { setTenantHistoryLimit(input: {tenantId: "t-1", historyLimit: 5}) { historyLimit } }');
    expect((await gql(SETTINGS)).tenantSettings).toEqual({
      tenantId: 't-1',
      historyLimit: 5,
      effectiveHistoryLimit: 5,
      updatedAt: '2026-05-23T14:00:00.000Z',
      updatedBy: 'key:admin',
    });
  });
});
