import { Logger } from '@nestjs/common';
import { EventRelay } from '../src/write-path/event-relay.service';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/** Every write path of the admin API on a real database, as admin (D17). */
describe('GraphQL mutations', () => {
  let t: TestApp;
  let audit: jest.SpyInstance;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
    audit = jest.spyOn(Logger.prototype, 'log');
  });
  afterEach(() => audit.mockRestore());

  const post = (query: string, variables: Record<string, unknown> = {}, key: string = KEYS.admin) =>
    t.http.post('/graphql').set('x-api-key', key).send({ query, variables });

  /** Fails the test on any GraphQL error; returns `data`. */
  async function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await post(query, variables);
    if (res.body.errors || res.status !== 200) throw new Error(`HTTP ${res.status}, GraphQL errors: ${JSON.stringify(res.body.errors)}`);
    return res.body.data as T;
  }

  /** The first error of an operation expected to fail. */
  async function error(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ message: string; extensions: Record<string, unknown> }> {
    const res = await post(query, variables);
    expect(res.body.errors).toBeDefined();
    // Resolver errors come with HTTP 200; a variable the schema cannot coerce is a request error (400).
    expect(res.status).toBe(res.body.errors[0].extensions.code === 'BAD_USER_INPUT' && !res.body.errors[0].extensions.field ? 400 : 200);
    return res.body.errors[0];
  }

  const ENTRY =
    'id scope scopeId toolName status code since expectedRecoveryAt version tenantId description lastDiagnosis { classification code by note } history { status classification by note } cooldowns { errorSignature userId nextSpawnAllowedAt lastClassification hits } pin { status until reason by at }';
  const op = (name: string, type: string) => `mutation($input: ${type}!) { ${name}(input: $input) { ${ENTRY} } }`;
  const M = {
    markToolUnavailable: op('markToolUnavailable', 'MarkUnavailableInput'),
    markToolIntermittent: op('markToolIntermittent', 'MarkIntermittentInput'),
    markToolAvailable: op('markToolAvailable', 'MarkAvailableInput'),
    setCooldown: op('setCooldown', 'SetCooldownInput'),
    clearCooldown: op('clearCooldown', 'ClearCooldownInput'),
    recordDiagnosis: op('recordDiagnosis', 'RecordDiagnosisInput'),
    clearToolHealth: op('clearToolHealth', 'ClearToolHealthInput'),
    pinToolHealth: op('pinToolHealth', 'PinToolHealthInput'),
    unpinToolHealth: op('unpinToolHealth', 'HealthKeyInput'),
    deleteToolHealth: op('deleteToolHealth', 'HealthKeyInput'),
    purgeToolHealth: 'mutation($input: PurgeToolHealthInput!) { purgeToolHealth(input: $input) { scope olderThan deleted hasMore } }',
    setTenantHistoryLimit:
      'mutation($input: SetTenantHistoryLimitInput!) { setTenantHistoryLimit(input: $input) { tenantId historyLimit effectiveHistoryLimit updatedBy updatedAt } }',
  };
  const PROJECT = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira' };
  const GLOBAL = { scope: 'GLOBAL', toolName: 'jira' };
  const stored = () => t.connection.db!.collection('tool_health');
  const auditLines = () => audit.mock.calls.map((call) => String(call[0]));

  describe('system writes (§7 first row)', () => {
    it('markToolUnavailable, markToolIntermittent and markToolAvailable move the status and record who', async () => {
      const down = await gql(M.markToolUnavailable, {
        input: {
          ...PROJECT,
          code: 'BACKEND_UNREACHABLE',
          note: 'gateway gone',
          since: '2026-05-23T13:55:00Z',
          expectedRecoveryAt: '2026-05-23T15:00:00Z',
          tenantId: 't-1',
        },
      });
      expect(down.markToolUnavailable).toMatchObject({
        id: 'PROJECT|p-1|jira',
        status: 'DOWN',
        code: 'BACKEND_UNREACHABLE',
        since: '2026-05-23T13:55:00.000Z',
        expectedRecoveryAt: '2026-05-23T15:00:00.000Z',
        tenantId: 't-1',
        version: 1,
        lastDiagnosis: { classification: null, code: 'BACKEND_UNREACHABLE', by: 'system:admin:admin', note: 'gateway gone' },
      });
      t.clock.advance(60_000);
      const degraded = await gql(M.markToolIntermittent, { input: { ...PROJECT, source: 'probe', code: 'BACKEND_FAILED' } });
      expect(degraded.markToolIntermittent).toMatchObject({
        status: 'DEGRADED',
        code: 'BACKEND_FAILED',
        since: '2026-05-23T14:01:00.000Z',
        version: 2,
      });
      expect(degraded.markToolIntermittent.lastDiagnosis.by).toBe('system:probe');
      const ok = await gql(M.markToolAvailable, { input: { ...PROJECT, source: 'probe' } });
      expect(ok.markToolAvailable).toMatchObject({ status: 'OK', code: null, expectedRecoveryAt: null, version: 3 });
      expect(ok.markToolAvailable.history.map((h: { status: string }) => h.status)).toEqual(['DOWN', 'DEGRADED', 'OK']);
    });

    it('markToolAvailable is NOT_FOUND when nothing is stored', async () => {
      expect((await error(M.markToolAvailable, { input: GLOBAL })).extensions.code).toBe('NOT_FOUND');
      expect(await stored().countDocuments()).toBe(0);
    });
  });

  describe('cooldowns (§6, D9)', () => {
    it('setCooldown sets a window, clearCooldown forgets it, and a second clear is NOT_FOUND', async () => {
      const set = await gql(M.setCooldown, {
        input: {
          scope: 'USER',
          scopeId: 'alice',
          toolName: 'jira',
          errorSignature: 'http-403',
          classification: 'USER_PERMISSION',
          userId: 'alice',
        },
      });
      expect(set.setCooldown).toMatchObject({
        status: 'OK',
        cooldowns: [
          {
            errorSignature: 'http-403',
            userId: 'alice',
            lastClassification: 'USER_PERMISSION',
            nextSpawnAllowedAt: '2026-05-24T14:00:00.000Z',
          },
        ],
      });
      const explicit = await gql(M.setCooldown, {
        input: { ...GLOBAL, errorSignature: 'http-429', classification: 'INTERMITTENT', durationMs: 30 * 24 * 3600_000 },
      });
      expect(explicit.setCooldown.cooldowns[0].nextSpawnAllowedAt).toBe('2026-06-22T14:00:00.000Z');
      const cleared = await gql(M.clearCooldown, {
        input: { scope: 'USER', scopeId: 'alice', toolName: 'jira', errorSignature: 'http-403', userId: 'alice' },
      });
      expect(cleared.clearCooldown.cooldowns).toEqual([]);
      expect(
        (
          await error(M.clearCooldown, {
            input: { scope: 'USER', scopeId: 'alice', toolName: 'jira', errorSignature: 'http-403', userId: 'alice' },
          })
        ).extensions.code,
      ).toBe('NOT_FOUND');
    });

    it('setCooldown refuses WORKING, which is not a failure', async () => {
      const e = await error(M.setCooldown, { input: { ...GLOBAL, errorSignature: 'x', classification: 'WORKING' } });
      expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'classification' });
    });
  });

  describe('verdicts and clear (§7 third row, D11)', () => {
    it('recordDiagnosis applies a verdict, by the admin unless told otherwise', async () => {
      const broken = await gql(M.recordDiagnosis, {
        input: {
          ...PROJECT,
          classification: 'TECHNICALLY_BROKEN',
          note: '502 since 14:00',
          errorSignature: 'http-502',
          expectedRecoveryAt: '2026-05-23T14:30:00Z',
          code: 'BACKEND_FAILED',
        },
      });
      expect(broken.recordDiagnosis).toMatchObject({
        status: 'DOWN',
        expectedRecoveryAt: '2026-05-23T14:30:00.000Z',
        lastDiagnosis: { classification: 'TECHNICALLY_BROKEN', by: 'admin:admin', note: '502 since 14:00' },
        cooldowns: [
          { errorSignature: 'http-502', nextSpawnAllowedAt: '2026-05-23T14:30:00.000Z', lastClassification: 'TECHNICALLY_BROKEN' },
        ],
      });
      const working = await gql(M.recordDiagnosis, { input: { ...PROJECT, classification: 'WORKING', by: 'agrajag-7f3c' } });
      expect(working.recordDiagnosis).toMatchObject({ status: 'OK', lastDiagnosis: { classification: 'WORKING', by: 'agrajag-7f3c' } });
      expect(working.recordDiagnosis.cooldowns[0].nextSpawnAllowedAt).toBe('2026-05-23T14:00:00.000Z');
    });

    it('recordDiagnosis refuses a verdict at the wrong scope', async () => {
      const e = await error(M.recordDiagnosis, { input: { ...PROJECT, classification: 'USER_SPECIFIC_TECHNICAL' } });
      expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'scope' });
    });

    it('clearToolHealth resets to OK and ends every cooldown; NOT_FOUND when nothing is stored', async () => {
      await gql(M.markToolUnavailable, { input: { ...PROJECT, code: 'BACKEND_FAILED' } });
      await gql(M.setCooldown, { input: { ...PROJECT, errorSignature: 'http-500', classification: 'USER_SPECIFIC_TECHNICAL' } });
      t.clock.advance(60_000);
      const cleared = await gql(M.clearToolHealth, { input: { ...PROJECT, note: 'fixed by ops' } });
      expect(cleared.clearToolHealth).toMatchObject({
        status: 'OK',
        code: null,
        lastDiagnosis: { classification: null, by: 'admin:admin', note: 'fixed by ops' },
      });
      expect(cleared.clearToolHealth.cooldowns[0].nextSpawnAllowedAt).toBe('2026-05-23T14:01:00.000Z');
      expect((await error(M.clearToolHealth, { input: GLOBAL })).extensions.code).toBe('NOT_FOUND');
    });

    it("keeps a tenant's longer history when an admin clears a non-TENANT entry of that tenant", async () => {
      await gql(M.setTenantHistoryLimit, { input: { tenantId: 't-1', historyLimit: 30 } });
      for (let i = 0; i < 25; i++)
        await gql(M.markToolUnavailable, { input: { ...PROJECT, code: 'BACKEND_FAILED', tenantId: 't-1', note: `n${i}` } });
      const cleared = await gql(M.clearToolHealth, { input: PROJECT });
      expect(cleared.clearToolHealth.history).toHaveLength(26);
    });
  });

  it('sweepCooldowns deletes cooldown entries expired past the grace period', async () => {
    await gql(M.setCooldown, { input: { ...GLOBAL, errorSignature: 'http-400', classification: 'USER_INPUT', userId: 'alice' } });
    expect((await gql('mutation { sweepCooldowns { documents removed } }')).sweepCooldowns).toEqual({ documents: 0, removed: 0 });
    t.clock.advance(25 * 3600_000);
    expect((await gql('mutation { sweepCooldowns { documents removed } }')).sweepCooldowns).toEqual({ documents: 1, removed: 1 });
  });

  it("setTenantHistoryLimit sets and resets a tenant's ring-buffer size", async () => {
    const set = await gql(M.setTenantHistoryLimit, { input: { tenantId: 't-1', historyLimit: 3 } });
    expect(set.setTenantHistoryLimit).toEqual({
      tenantId: 't-1',
      historyLimit: 3,
      effectiveHistoryLimit: 3,
      updatedBy: 'key:admin',
      updatedAt: '2026-05-23T14:00:00.000Z',
    });
    for (let i = 0; i < 5; i++)
      await gql(M.markToolUnavailable, {
        input: { scope: 'TENANT', scopeId: 't-1', toolName: 'jira', code: 'BACKEND_FAILED', note: `n${i}` },
      });
    const entry = await gql('{ toolHealth(scope: TENANT, scopeId: "t-1", toolName: "jira") { history { note } } }');
    expect(entry.toolHealth.history.map((h: { note: string }) => h.note)).toEqual(['n2', 'n3', 'n4']);
    const reset = await gql(M.setTenantHistoryLimit, { input: { tenantId: 't-1', historyLimit: null } });
    expect(reset.setTenantHistoryLimit).toMatchObject({ historyLimit: null, effectiveHistoryLimit: 20 });
  });

  describe('pins (D4b)', () => {
    const TENANT = { scope: 'TENANT', scopeId: 't-1', toolName: 'jira' };
    const effective = async (context: Record<string, string>) =>
      (await gql('query($c: CallContextInput) { effectiveHealth(toolName: "jira", context: $c) { status reason } }', { c: context }))
        .effectiveHealth;

    it('pinToolHealth overrides a wider DOWN until it ends, unpinToolHealth lifts it; both are logged and recorded', async () => {
      await gql(M.markToolUnavailable, { input: { ...GLOBAL, code: 'BACKEND_FAILED' } });
      const pinned = await gql(M.pinToolHealth, {
        input: { ...TENANT, status: 'OK', until: '2026-05-23T18:00:00Z', reason: 'tenant runs its own Jira' },
      });
      expect(pinned.pinToolHealth).toMatchObject({
        id: 'TENANT|t-1|jira',
        status: 'OK',
        tenantId: 't-1',
        lastDiagnosis: null,
        pin: {
          status: 'OK',
          until: '2026-05-23T18:00:00.000Z',
          reason: 'tenant runs its own Jira',
          by: 'admin:admin',
          at: '2026-05-23T14:00:00.000Z',
        },
        history: [
          {
            status: 'OK',
            classification: null,
            by: 'admin:admin',
            note: 'pinned OK until 2026-05-23T18:00:00.000Z: tenant runs its own Jira',
          },
        ],
      });
      expect(auditLines()).toContain('admin admin pinned TENANT|t-1|jira OK until 2026-05-23T18:00:00.000Z: tenant runs its own Jira');
      expect(await effective({ tenantId: 't-1' })).toEqual({ status: 'OK', reason: 'PINNED' });
      expect(await effective({ tenantId: 't-2' })).toEqual({ status: 'DOWN', reason: 'LIVE_PROBLEM' });

      // A verdict under the pin moves the stored status (P6); the cascade still answers with the pin.
      const verdict = await gql(M.markToolUnavailable, { input: { ...TENANT, code: 'BACKEND_FAILED', source: 'probe' } });
      expect(verdict.markToolUnavailable).toMatchObject({ status: 'DOWN', pin: { status: 'OK' } });
      expect(await effective({ tenantId: 't-1' })).toEqual({ status: 'OK', reason: 'PINNED' });

      t.clock.advance(60_000);
      const unpinned = await gql(M.unpinToolHealth, { input: TENANT });
      expect(unpinned.unpinToolHealth.pin).toBeNull();
      expect(unpinned.unpinToolHealth.history.at(-1)).toMatchObject({
        by: 'admin:admin',
        note: 'unpinned (was OK until 2026-05-23T18:00:00.000Z)',
      });
      expect(auditLines()).toContain('admin admin unpinned TENANT|t-1|jira');
      expect(await effective({ tenantId: 't-1' })).toEqual({ status: 'DOWN', reason: 'LIVE_PROBLEM' });
      expect((await error(M.unpinToolHealth, { input: TENANT })).extensions.code).toBe('NOT_FOUND');
      expect((await error(M.unpinToolHealth, { input: { ...TENANT, scopeId: 't-404' } })).extensions.code).toBe('NOT_FOUND');
    });

    it('a pin ends by itself at `until`', async () => {
      await gql(M.markToolUnavailable, { input: { ...GLOBAL, code: 'BACKEND_FAILED' } });
      await gql(M.pinToolHealth, { input: { ...GLOBAL, status: 'OK', until: '2026-05-23T15:00:00Z', reason: 'false alarm' } });
      expect(await effective({})).toEqual({ status: 'OK', reason: 'PINNED' });
      t.clock.set('2026-05-23T15:00:00.000Z');
      expect(await effective({})).toEqual({ status: 'DOWN', reason: 'LIVE_PROBLEM' });
    });

    it.each([
      ['an instant in the past', { until: '2026-05-23T13:00:00Z' }, 'until'],
      ['a blank reason', { reason: '  ' }, 'reason'],
      ['a reason that is too long', { reason: 'x'.repeat(2001) }, 'reason'],
      ['GLOBAL with a scope id', { scope: 'GLOBAL', scopeId: 'x' }, 'scopeId'],
    ])('pinToolHealth refuses %s with BAD_USER_INPUT naming the field', async (_, patch, field) => {
      const e = await error(M.pinToolHealth, {
        input: { ...TENANT, status: 'DOWN', until: '2026-05-24T00:00:00Z', reason: 'r', ...patch },
      });
      expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', field });
      expect(await stored().countDocuments()).toBe(0);
    });

    it('pinToolHealth refuses DEGRADED: not a PinStatus', async () => {
      const e = await error(M.pinToolHealth, { input: { ...TENANT, status: 'DEGRADED', until: '2026-05-24T00:00:00Z', reason: 'r' } });
      expect(e.extensions.code).toBe('BAD_USER_INPUT');
      expect(e.message).toContain('DEGRADED');
    });
  });

  describe('hard delete and purge (D14)', () => {
    // A write's events reach the outbox within its answer only when the relay is quick (P53); on a
    // loaded machine its next pass brings them. These tests read the outcome of the relay: drain it.
    const relayed = () => t.app.get(EventRelay).drain();

    it('deleteToolHealth removes one document, returns it, and logs who and what', async () => {
      await gql(M.markToolUnavailable, { input: { ...PROJECT, code: 'BACKEND_FAILED' } });
      await gql(M.markToolUnavailable, { input: { ...GLOBAL, code: 'BACKEND_FAILED' } });
      const deleted = await gql(M.deleteToolHealth, { input: PROJECT });
      expect(deleted.deleteToolHealth).toMatchObject({ id: 'PROJECT|p-1|jira', status: 'DOWN' });
      expect(auditLines()).toContain('admin admin deleted PROJECT|p-1|jira');
      expect(
        await stored()
          .find()
          .map((d) => d._id)
          .toArray(),
      ).toEqual(['GLOBAL|%00|jira']);
      expect((await error(M.deleteToolHealth, { input: PROJECT })).extensions.code).toBe('NOT_FOUND');
      expect((await error('{ toolHealth(scope: PROJECT, scopeId: "p-1", toolName: "jira") { id } }')).extensions.code).toBe('NOT_FOUND');
      await relayed();
      const events = await gql(
        '{ healthEvents(first: 50) { edges { node { id type docId payload { ... on DeletedPayload { previousStatus by } } } } } }',
      );
      const deletions = events.healthEvents.edges
        .map((e: { node: { type: string } }) => e.node)
        .filter((n: { type: string }) => n.type === 'DELETED');
      expect(deletions).toEqual([
        {
          id: expect.stringMatching(/^PROJECT\|p-1\|jira:[A-Za-z0-9_-]+:1:DELETED$/),
          type: 'DELETED',
          docId: 'PROJECT|p-1|jira',
          payload: { previousStatus: 'DOWN', by: 'admin:admin' },
        },
      ]);
    });

    it('purgeToolHealth deletes the old documents of one scope in capped batches, keeps pins in force, and logs', async () => {
      for (let i = 0; i < 5; i++)
        await gql(M.markToolUnavailable, {
          input: { scope: 'SESSION', scopeId: `s-${i}`, toolName: 'client_file_read', code: 'BACKEND_UNREACHABLE' },
        });
      await gql(M.pinToolHealth, {
        input: {
          scope: 'SESSION',
          scopeId: 's-pinned',
          toolName: 'client_file_read',
          status: 'DOWN',
          until: '2026-06-30T00:00:00Z',
          reason: 'keep for the incident review',
        },
      });
      await gql(M.markToolUnavailable, { input: { scope: 'USER', scopeId: 'alice', toolName: 'jira', code: 'BACKEND_FAILED' } });
      t.clock.set('2026-05-25T00:00:00.000Z');
      await gql(M.markToolUnavailable, {
        input: { scope: 'SESSION', scopeId: 's-fresh', toolName: 'client_file_read', code: 'BACKEND_UNREACHABLE' },
      });

      const input = { scope: 'SESSION', olderThan: '2026-05-24T00:00:00Z', limit: 3 };
      await relayed(); // a document whose events are not relayed yet waits for a later purge (P53)
      const one = await gql(M.purgeToolHealth, { input });
      expect(one.purgeToolHealth).toEqual({ scope: 'SESSION', olderThan: '2026-05-24T00:00:00.000Z', deleted: 3, hasMore: true });
      const two = await gql(M.purgeToolHealth, { input });
      expect(two.purgeToolHealth).toEqual({ scope: 'SESSION', olderThan: '2026-05-24T00:00:00.000Z', deleted: 2, hasMore: false });
      const three = await gql(M.purgeToolHealth, { input });
      expect(three.purgeToolHealth).toMatchObject({ deleted: 0, hasMore: false });

      expect(
        (
          await stored()
            .find()
            .map((d) => d._id)
            .toArray()
        ).sort(),
      ).toEqual(['SESSION|s-fresh|client_file_read', 'SESSION|s-pinned|client_file_read', 'USER|alice|jira']);
      expect(auditLines()).toEqual(
        expect.arrayContaining([
          'admin admin purged 3 SESSION documents updated before 2026-05-24T00:00:00.000Z (more remain)',
          'admin admin purged 2 SESSION documents updated before 2026-05-24T00:00:00.000Z',
        ]),
      );
    });

    it('purgeToolHealth refuses an instant after now and a batch over the cap', async () => {
      expect((await error(M.purgeToolHealth, { input: { scope: 'SESSION', olderThan: '2026-05-24T00:00:00Z' } })).extensions).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'olderThan',
      });
      expect(
        (await error(M.purgeToolHealth, { input: { scope: 'SESSION', olderThan: '2026-05-01T00:00:00Z', limit: 5001 } })).extensions,
      ).toEqual({ code: 'BAD_USER_INPUT', field: 'limit' });
    });
  });

  describe('validation: BAD_USER_INPUT naming the field, nothing written', () => {
    it.each([
      [
        'a tool name outside the character set',
        M.markToolUnavailable,
        { ...PROJECT, toolName: 'jira search!', code: 'BACKEND_FAILED' },
        'toolName',
      ],
      ['SESSION without a scope id', M.markToolUnavailable, { scope: 'SESSION', toolName: 'x', code: 'BACKEND_FAILED' }, 'scopeId'],
      ['GLOBAL with a scope id', M.markToolIntermittent, { ...GLOBAL, scopeId: 'x' }, 'scopeId'],
      ['a note that is too long', M.markToolIntermittent, { ...GLOBAL, note: 'x'.repeat(2001) }, 'note'],
      ['a source outside the character set', M.markToolUnavailable, { ...GLOBAL, code: 'BACKEND_FAILED', source: 'a b' }, 'source'],
      [
        'a duration under a second',
        M.setCooldown,
        { ...GLOBAL, errorSignature: 'e', classification: 'INTERMITTENT', durationMs: 10 },
        'durationMs',
      ],
      [
        'a duration that is not whole',
        M.setCooldown,
        { ...GLOBAL, errorSignature: 'e', classification: 'INTERMITTENT', durationMs: 1500.5 },
        'durationMs',
      ],
      [
        'a duration over 30 days',
        M.setCooldown,
        { ...GLOBAL, errorSignature: 'e', classification: 'INTERMITTENT', durationMs: 31 * 24 * 3600_000 },
        'durationMs',
      ],
      [
        'an error signature with a $',
        M.setCooldown,
        { ...GLOBAL, errorSignature: '$gt', classification: 'INTERMITTENT' },
        'errorSignature',
      ],
      ['a user id with spaces', M.clearCooldown, { ...GLOBAL, errorSignature: 'e', userId: 'a b' }, 'userId'],
      ['a diagnosing process id with spaces', M.recordDiagnosis, { ...PROJECT, classification: 'WORKING', by: 'a b' }, 'by'],
      ['a history limit of 0', M.setTenantHistoryLimit, { tenantId: 't-1', historyLimit: 0 }, 'historyLimit'],
      ['a tenant id with a slash space', M.setTenantHistoryLimit, { tenantId: 't 1', historyLimit: 5 }, 'tenantId'],
    ])('%s', async (_, query, input, field) => {
      const e = await error(query, { input });
      expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', field });
      expect(e.message).toContain(field);
      expect(await stored().countDocuments()).toBe(0);
    });

    it.each([
      ['first: 0', '{ toolHealths(first: 0) { edges { cursor } } }', 'first'],
      ['first over the cap', '{ toolHealths(first: 501) { edges { cursor } } }', 'first'],
      ['a filter scope id with spaces', '{ toolHealths(filter: {scopeId: "a b"}) { edges { cursor } } }', 'filter.scopeId'],
      ['a cursor this list never gave out', '{ toolHealths(after: "bm9wZQ") { edges { cursor } } }', 'after'],
      ['a context id with spaces', '{ effectiveHealth(toolName: "jira", context: {userId: "a b"}) { status } }', 'context.userId'],
      ['a tool name with spaces', '{ toolOverview(toolName: "a b") { total } }', 'toolName'],
      ['a limit of 0', '{ dueForProbe(limit: 0) { id } }', 'limit'],
      ['a sweep limit over the cap', '{ cooldownsDueForSweep(limit: 501) { cooldowns { hits } } }', 'limit'],
      ['an events page of 0', '{ healthEvents(first: 0) { edges { cursor } } }', 'first'],
      ['a tenant id with spaces', '{ tenantSettings(tenantId: "a b") { tenantId } }', 'tenantId'],
    ])('query with %s', async (_, query, field) => {
      const e = await error(query);
      expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    });

    it('a value the schema itself refuses (unknown enum, bad DateTime) is BAD_USER_INPUT too', async () => {
      expect((await error(M.markToolUnavailable, { input: { ...GLOBAL, code: 'ON_FIRE' } })).extensions.code).toBe('BAD_USER_INPUT');
      expect(
        (await error(M.markToolUnavailable, { input: { ...GLOBAL, code: 'BACKEND_FAILED', since: 'tomorrow-ish' } })).extensions.code,
      ).toBe('BAD_USER_INPUT');
      expect(await stored().countDocuments()).toBe(0);
    });
  });
});
