import { CommandStartedEvent, CommandSucceededEvent, Document } from 'mongodb';
import { BookkeepingBuffer } from '../src/features/outcomes/bookkeeping-buffer.service';
import { AGRAJAG_TOOLS } from '../src/features/diagnoses/agrajag-tools';
import { pinEntry } from '../src/domain/pin';
import { Scope } from '../src/domain/scope';
import { HealthKey } from '../src/domain/tool-health-document';
import { ToolStatus } from '../src/domain/tool-status';
import { ToolHealthRepository } from '../src/persistence/tool-health/tool-health.repository';
import { EventRelay } from '../src/write-path/event-relay.service';
import { READ_ANCHOR_COLLECTION } from '../src/persistence/tool-presence/manifest-read';
import { KEYS, TestApp, createTestApp, isBackgroundCommand } from './support/test-app';

const DAY = '2026-05-23';
const utc = (hhmm: string, day = DAY) => `${day}T${hhmm}:00.000Z`;
const WRITER = 'tool-health-writer';
const HINT = 'do not call, plan without it';

interface Tool {
  name: string;
  description?: string;
  safety?: string;
  requiresEngineRoles?: string[];
}

interface Trace {
  reason: string;
  matched: {
    scope: string;
    scopeId: string | null;
    by: string | null;
    since: string;
    until: string | null;
    pinned: boolean;
    code: string | null;
  } | null;
  shadowed: { scope: string; scopeId: string | null; status: string }[];
}

interface Annotated {
  name: string;
  description: string;
  suffix: string | null;
  status: string;
  retesting: boolean;
  doNotCall: boolean;
  hint: string | null;
  reason: Trace;
  inputSchema: Record<string, unknown> | null;
}

interface Annotation {
  tools: Annotated[];
  departed: Annotated[];
  filtered: { count: number; byReason: Record<string, number>; tools: { name: string; reason: string }[] };
}

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, description: `Does ${name}.`, ...extra });
const names = (list: { name: string }[]) => list.map((x) => x.name);

describe('manifest annotation and explain (REST)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    // Wait for mongoose's background index builds (autoIndex): on mongo-java-server an insert
    // racing them fails ("Unknown error: null"). Belongs in createTestApp; here until it is.
    await Promise.all(Object.values(t.connection.models).map((model) => model.init()));
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set(utc('14:00'));
  });

  const post = (path: string, body: object, key: string = KEYS.dispatcher) => t.http.post(path).set('x-api-key', key).send(body);
  const annotate = async (body: object): Promise<Annotation> => (await post('/v1/manifest/annotate', body).expect(200)).body;
  const explain = async (body: object) => (await post('/v1/manifest/explain', body).expect(200)).body;
  const byName = (list: Annotated[]) => new Map(list.map((x) => [x.name, x]));

  const markDown = (key: object, extra: object = {}) =>
    post('/v1/health/mark-unavailable', { source: 'test', code: 'BACKEND_FAILED', ...key, ...extra }).expect(200);
  const markIntermittent = (key: object, extra: object = {}) =>
    post('/v1/health/mark-intermittent', { source: 'test', code: 'BACKEND_FAILED', ...key, ...extra }).expect(200);
  const global = (toolName: string) => ({ scope: 'GLOBAL', toolName });
  const at = (scope: string, scopeId: string, toolName: string) => ({ scope, scopeId, toolName });
  const disconnect = (sessionId: string, tools: { name: string; description?: string }[], when: string) =>
    post(`/v1/sessions/${sessionId}/client-disconnected`, { source: 'foot', at: when, tools }).expect(200);

  /**
   * Every command on tool_health, its presence lists (P81) and the manifest read's anchor (P363)
   * — a getMore too: another round trip — issued while `run` is in flight, with the documents
   * each answered.
   */
  async function toolHealthCommands<T>(
    run: () => Promise<T>,
  ): Promise<{ result: T; commands: CommandStartedEvent[]; replies: Map<number, Document[]> }> {
    // The relay settles each event's scope status with a read of the entries (D27), shared with
    // requests' reads: a pass still running from the set-up's writes is finished first.
    await t.app.get(EventRelay).drain();
    const client = t.connection.getClient();
    const commands: CommandStartedEvent[] = [];
    const replies = new Map<number, Document[]>();
    const onStart = (event: CommandStartedEvent) => {
      const collection = event.commandName === 'getMore' ? event.command.collection : event.command[event.commandName];
      if (WATCHED.has(collection) && !isBackgroundCommand(event)) commands.push(event);
    };
    const onReply = (event: CommandSucceededEvent) => {
      if (!commands.some((c) => c.requestId === event.requestId)) return;
      const cursor = (event.reply as { cursor?: { firstBatch?: Document[]; nextBatch?: Document[] } }).cursor;
      const documents = cursor?.firstBatch ?? cursor?.nextBatch ?? [];
      // The manifest read answers one document holding the entries (P363).
      const read = commands.find((c) => c.requestId === event.requestId)!.command.aggregate === READ_ANCHOR_COLLECTION;
      replies.set(event.requestId, read ? documents.flatMap((d) => d.entries as Document[]) : documents);
    };
    client.on('commandStarted', onStart);
    client.on('commandSucceeded', onReply);
    try {
      return { result: await run(), commands, replies };
    } finally {
      client.off('commandStarted', onStart);
      client.off('commandSucceeded', onReply);
    }
  }
  const WATCHED = new Set(['tool_health', 'tool_health_presence', READ_ANCHOR_COLLECTION]);

  describe('§9 suffixes', () => {
    // Written at 14:00 UTC, read at 14:30 UTC (16:30 in Berlin, CEST +2).
    const CASES: { name: string; UTC: string | null; 'Europe/Berlin': string | null; status: string; retesting?: boolean }[] = [
      { name: 'ok_tool', UTC: null, 'Europe/Berlin': null, status: 'OK' },
      { name: 'cooldown_only', UTC: null, 'Europe/Berlin': null, status: 'OK' },
      { name: 'down_no_estimate', UTC: 'unavailable since 13:45', 'Europe/Berlin': 'unavailable since 15:45', status: 'DOWN' },
      {
        name: 'down_back_today',
        UTC: 'currently unavailable — expected back at 15:00',
        'Europe/Berlin': 'currently unavailable — expected back at 17:00',
        status: 'DOWN',
      },
      {
        name: 'down_back_tomorrow',
        UTC: 'currently unavailable — expected back at 2026-05-24 14:30',
        'Europe/Berlin': 'currently unavailable — expected back at 2026-05-24 16:30',
        status: 'DOWN',
      },
      // Same UTC day, but already tomorrow in Berlin: the date is shown there only.
      {
        name: 'down_back_tonight',
        UTC: 'currently unavailable — expected back at 22:30',
        'Europe/Berlin': 'currently unavailable — expected back at 2026-05-24 00:30',
        status: 'DOWN',
      },
      {
        name: 'down_since_yesterday',
        UTC: 'unavailable since 2026-05-22 21:30',
        'Europe/Berlin': 'unavailable since 2026-05-22 23:30',
        status: 'DOWN',
      },
      // Yesterday in UTC, but today (00:30) in Berlin: no date there.
      {
        name: 'down_since_local_midnight',
        UTC: 'unavailable since 2026-05-22 22:30',
        'Europe/Berlin': 'unavailable since 00:30',
        status: 'DOWN',
      },
      { name: 'down_retesting', UTC: null, 'Europe/Berlin': null, status: 'DOWN', retesting: true },
      { name: 'degraded_retesting', UTC: null, 'Europe/Berlin': null, status: 'DEGRADED', retesting: true },
      {
        name: 'degraded_no_failure_yet',
        UTC: 'intermittent — last failure 30 min ago, retry tolerated',
        'Europe/Berlin': 'intermittent — last failure 30 min ago, retry tolerated',
        status: 'DEGRADED',
      },
    ];

    async function writeCases(): Promise<void> {
      await markDown(global('down_no_estimate'), { since: utc('13:45') });
      await markDown(global('down_back_today'), { expectedRecoveryAt: utc('15:00') });
      await markDown(global('down_back_tomorrow'), { expectedRecoveryAt: utc('14:30', '2026-05-24') });
      await markDown(global('down_back_tonight'), { expectedRecoveryAt: utc('22:30') });
      await markDown(global('down_since_yesterday'), { since: utc('21:30', '2026-05-22') });
      await markDown(global('down_since_local_midnight'), { since: utc('22:30', '2026-05-22') });
      await markDown(global('down_retesting'), { expectedRecoveryAt: utc('14:10') });
      await markIntermittent(global('degraded_retesting'), { expectedRecoveryAt: utc('14:20') });
      await markIntermittent(global('degraded_no_failure_yet'));
      // A cooldown never shows (§9): Alice's 403 leaves the tool listed plainly.
      await post('/v1/cooldowns', {
        ...at('USER', 'alice', 'cooldown_only'),
        errorSignature: 'http-403',
        classification: 'USER_PERMISSION',
        userId: 'alice',
      }).expect(200);
    }

    it.each(['UTC', 'Europe/Berlin'] as const)('in %s', async (timeZone) => {
      await writeCases();
      t.clock.set(utc('14:30'));
      const body = await annotate({ tools: CASES.map((c) => tool(c.name)), context: { userId: 'alice' }, timeZone });
      expect(names(body.tools)).toEqual(CASES.map((c) => c.name));
      for (const [i, c] of CASES.entries()) {
        const suffix = c[timeZone];
        const down = c.status === 'DOWN' && !c.retesting;
        expect(body.tools[i]).toMatchObject({
          name: c.name,
          description: suffix ? `Does ${c.name}. (${suffix})` : `Does ${c.name}.`,
          suffix,
          status: c.status,
          retesting: c.retesting ?? false,
          doNotCall: down,
          hint: down ? HINT : null,
          inputSchema: null,
        });
      }
      expect(body.departed).toEqual([]);
      expect(body.filtered).toEqual({ count: 0, byReason: { MISSING_ENGINE_ROLE: 0, NOT_SAFE_PROBE: 0 }, tools: [] });
    });

    it('defaults to UTC', async () => {
      await writeCases();
      t.clock.set(utc('14:30'));
      const body = await annotate({ tools: [tool('down_back_today'), tool('down_back_tonight')] });
      expect(body.tools.map((x) => x.suffix)).toEqual([
        'currently unavailable — expected back at 15:00',
        'currently unavailable — expected back at 22:30',
      ]);
    });

    it('counts DEGRADED minutes from lastFailureAt: whole minutes, at least 1', async () => {
      const key = at('PROJECT', 'p-1', 'jira');
      const turn = { tools: [tool('jira')], context: { projectId: 'p-1', userId: 'alice' } };
      const failure = {
        toolName: 'jira',
        context: { projectId: 'p-1', userId: 'alice' },
        code: 'BACKEND_FAILED',
        errorSignature: 'http-502',
      };
      await markIntermittent(key);
      expect((await annotate(turn)).tools[0].suffix).toBe('intermittent — last failure 1 min ago, retry tolerated');

      t.clock.set(utc('14:27'));
      await post('/v1/outcomes/failure', failure).expect(200);
      await t.app.get(BookkeepingBuffer).flush();
      t.clock.set('2026-05-23T14:30:59.000Z');
      expect((await annotate(turn)).tools[0]).toMatchObject({
        status: 'DEGRADED',
        suffix: 'intermittent — last failure 3 min ago, retry tolerated',
        description: 'Does jira. (intermittent — last failure 3 min ago, retry tolerated)',
        doNotCall: false,
        hint: null,
      });

      t.clock.set('2026-05-23T14:31:00.000Z');
      await post('/v1/outcomes/failure', failure).expect(200);
      await t.app.get(BookkeepingBuffer).flush();
      t.clock.set('2026-05-23T14:31:40.000Z');
      expect((await annotate(turn)).tools[0].suffix).toBe('intermittent — last failure 1 min ago, retry tolerated');
    });

    describe('across a daylight-saving change (Europe/Berlin)', () => {
      it('spring forward: an instant before the change keeps its CET clock time', async () => {
        // 2026-03-29 01:00 UTC: 02:00 CET jumps to 03:00 CEST.
        t.clock.set('2026-03-29T00:30:00.000Z'); // 01:30 CET
        await markDown(global('vpn'), { expectedRecoveryAt: '2026-03-29T01:30:00.000Z' }); // one hour later: 03:30 CEST
        await markDown(global('wiki'), { since: '2026-03-29T00:15:00.000Z' }); // 01:15 CET
        const turn = (timeZone: string) => annotate({ tools: [tool('vpn'), tool('wiki')], timeZone });
        expect((await turn('Europe/Berlin')).tools.map((x) => x.suffix)).toEqual([
          'currently unavailable — expected back at 03:30',
          'unavailable since 01:15',
        ]);
        expect((await turn('UTC')).tools.map((x) => x.suffix)).toEqual([
          'currently unavailable — expected back at 01:30',
          'unavailable since 00:15',
        ]);

        // Read after the change (14:00 CEST): `since` still reads 01:15, not 02:15 (an hour that never existed that day).
        t.clock.set('2026-03-29T12:00:00.000Z');
        expect((await turn('Europe/Berlin')).tools.map((x) => x.suffix)).toEqual([null, 'unavailable since 01:15']);
        expect((await turn('Europe/Berlin')).tools[0].retesting).toBe(true);
      });

      it('fall back: one hour later shows the same clock time; the local day starts at 22:00 UTC the day before', async () => {
        // 2026-10-25 01:00 UTC: 03:00 CEST goes back to 02:00 CET.
        t.clock.set('2026-10-25T00:15:00.000Z'); // 02:15 CEST
        await markDown(global('vpn'), { expectedRecoveryAt: '2026-10-25T01:15:00.000Z' }); // 02:15 CET
        await markDown(global('wiki'), { since: '2026-10-24T22:30:00.000Z' }); // 00:30 CEST, the 25th
        const turn = (timeZone: string) => annotate({ tools: [tool('vpn'), tool('wiki')], timeZone });
        expect((await turn('Europe/Berlin')).tools.map((x) => x.suffix)).toEqual([
          // 02:15 happens twice that night: the offset says which (issue 16, P78).
          'currently unavailable — expected back at 02:15 (UTC+1)',
          'unavailable since 00:30',
        ]);
        expect((await turn('UTC')).tools.map((x) => x.suffix)).toEqual([
          'currently unavailable — expected back at 01:15',
          'unavailable since 2026-10-24 22:30',
        ]);
        // Late that day (23:30 CET = 22:30 UTC): still the same local day as 00:30 CEST.
        t.clock.set('2026-10-25T22:30:00.000Z');
        expect((await turn('Europe/Berlin')).tools[1].suffix).toBe('unavailable since 00:30');
        t.clock.set('2026-10-25T23:00:00.000Z'); // 00:00 CET on the 26th
        expect((await turn('Europe/Berlin')).tools[1].suffix).toBe('unavailable since 2026-10-25 00:30');
      });
    });
  });

  describe('the reason, like a feature flag evaluation', () => {
    it('a RETESTING USER entry yields to a live GLOBAL DOWN, and the trace says which entry won', async () => {
      await markDown(global('jira'), { code: 'BACKEND_UNREACHABLE', since: utc('13:00'), source: 'jira-probe' });
      await markDown(at('USER', 'alice', 'jira'), { expectedRecoveryAt: utc('14:10'), source: 'token-check' });
      const turn = (userId: string) => annotate({ tools: [tool('jira')], context: { userId } });

      t.clock.set(utc('14:05'));
      // Changed with D20: at 14:10 the GLOBAL DOWN (no estimate) still blocks, so back-at is unknown.
      expect((await turn('alice')).tools[0]).toMatchObject({
        status: 'DOWN',
        suffix: 'unavailable since 14:00',
        reason: {
          reason: 'LIVE_PROBLEM',
          matched: {
            scope: 'USER',
            scopeId: 'alice',
            by: 'system:token-check',
            since: utc('14:00'),
            until: utc('14:10'),
            pinned: false,
            code: 'BACKEND_FAILED',
          },
          shadowed: [{ scope: 'GLOBAL', scopeId: null, status: 'DOWN' }],
        },
      });

      t.clock.set(utc('14:30'));
      for (const user of ['alice', 'bob']) {
        expect((await turn(user)).tools[0]).toEqual({
          name: 'jira',
          description: 'Does jira. (unavailable since 13:00)',
          suffix: 'unavailable since 13:00',
          status: 'DOWN',
          retesting: false,
          doNotCall: true,
          hint: HINT,
          reason: {
            reason: 'LIVE_PROBLEM',
            matched: {
              scope: 'GLOBAL',
              scopeId: null,
              by: 'system:jira-probe',
              since: utc('13:00'),
              until: null,
              pinned: false,
              code: 'BACKEND_UNREACHABLE',
            },
            shadowed: [],
            why: expect.any(Array),
          },
          inputSchema: null,
        });
      }
    });

    it('a pinned TENANT OK hides a GLOBAL DOWN for that tenant only', async () => {
      await markDown(global('jira'), { since: utc('13:00') });
      // The admin's pin (D4b), through the domain's own reducer: no REST route pins (admin API).
      const key: HealthKey = { scope: Scope.TENANT, scopeId: 't-1', toolName: 'jira' };
      const pin = pinEntry({
        key,
        status: ToolStatus.OK,
        until: new Date(utc('18:00')),
        reason: 'own Jira instance',
        by: 'admin:ops',
        now: t.clock.now(),
        historyLimit: 20,
        tenantId: 't-1',
      });
      await t.app.get(ToolHealthRepository).mutate(key, pin);
      const turn = (context: object) => annotate({ tools: [tool('jira')], context });

      expect((await turn({ tenantId: 't-1', userId: 'alice' })).tools[0]).toMatchObject({
        status: 'OK',
        suffix: null,
        description: 'Does jira.',
        doNotCall: false,
        reason: {
          reason: 'PINNED',
          matched: { scope: 'TENANT', scopeId: 't-1', by: 'admin:ops', until: utc('18:00'), pinned: true },
          shadowed: [{ scope: 'GLOBAL', scopeId: null, status: 'DOWN' }],
        },
      });
      for (const context of [{ tenantId: 't-2' }, {}]) {
        expect((await turn(context)).tools[0]).toMatchObject({
          status: 'DOWN',
          suffix: 'unavailable since 13:00',
          reason: { matched: { scope: 'GLOBAL' } },
        });
      }
      // The pin ends: the GLOBAL outage reaches the tenant again.
      t.clock.set(utc('18:00'));
      expect((await turn({ tenantId: 't-1' })).tools[0]).toMatchObject({
        status: 'DOWN',
        reason: { reason: 'LIVE_PROBLEM', matched: { scope: 'GLOBAL' } },
      });
    });

    it('no problem: default OK with no matched entry', async () => {
      const body = await annotate({
        tools: [tool('calculator')],
        context: { sessionId: 's-1', userId: 'alice', projectId: 'p-1', tenantId: 't-1' },
      });
      expect(body.tools[0].reason).toEqual({ reason: 'DEFAULT_OK', matched: null, shadowed: [], why: expect.any(Array) });
    });
  });

  describe('audience (§8)', () => {
    const TOOLS = [
      tool('plain', { safety: 'READ_ONLY' }),
      tool('writer_only', { safety: 'SAFE_PROBE', requiresEngineRoles: [WRITER] }),
      tool('two_roles', { safety: 'MUTATING', requiresEngineRoles: ['repair-actor', WRITER] }),
      tool('probe_safe', { safety: 'SAFE_PROBE' }),
      tool('unmarked'),
    ];

    it.each([
      [
        [],
        ['plain', 'probe_safe', 'unmarked'],
        [
          ['writer_only', 'MISSING_ENGINE_ROLE'],
          ['two_roles', 'MISSING_ENGINE_ROLE'],
        ],
      ],
      [[WRITER], ['plain', 'writer_only', 'probe_safe', 'unmarked'], [['two_roles', 'MISSING_ENGINE_ROLE']]],
      [['repair-actor', WRITER, 'audit-reader'], ['plain', 'writer_only', 'two_roles', 'probe_safe', 'unmarked'], []],
    ])('engine roles %j see only tools whose roles they all hold', async (engineRoles, visible, filtered) => {
      const body = await annotate({ tools: TOOLS, engineRoles });
      expect(names(body.tools)).toEqual(visible);
      expect(body.filtered).toEqual({
        count: filtered.length,
        byReason: { MISSING_ENGINE_ROLE: filtered.length, NOT_SAFE_PROBE: 0 },
        tools: filtered.map(([name, reason]) => ({ name, reason })),
      });
    });

    it('a probe turn keeps only SAFE_PROBE tools; a missing role is reported first', async () => {
      const body = await annotate({ tools: TOOLS, engineRoles: [WRITER], probeTurn: true });
      expect(names(body.tools)).toEqual(['writer_only', 'probe_safe']);
      expect(body.filtered).toEqual({
        count: 3,
        byReason: { MISSING_ENGINE_ROLE: 1, NOT_SAFE_PROBE: 2 },
        tools: [
          { name: 'plain', reason: 'NOT_SAFE_PROBE' },
          { name: 'two_roles', reason: 'MISSING_ENGINE_ROLE' },
          { name: 'unmarked', reason: 'NOT_SAFE_PROBE' },
        ],
      });
    });

    it('filtered tools are not looked up, and a filtered DOWN tool does not leak', async () => {
      await markDown(global('two_roles'));
      const body = await annotate({ tools: TOOLS, engineRoles: [] });
      expect(names(body.tools)).not.toContain('two_roles');
    });

    describe('the Agrajag tools', () => {
      const AGRAJAG = AGRAJAG_TOOLS.map((x) => x.name as string);

      it('are merged after the input and visible only to engines holding tool-health-writer', async () => {
        const arthur = await annotate({ tools: [tool('plain')], engineRoles: ['arthur'], includeAgrajagTools: true });
        expect(names(arthur.tools)).toEqual(['plain']);
        expect(arthur.filtered.tools).toEqual(AGRAJAG.map((name) => ({ name, reason: 'MISSING_ENGINE_ROLE' })));
        expect(arthur.filtered.byReason.MISSING_ENGINE_ROLE).toBe(4);

        const agrajag = await annotate({ tools: [tool('plain')], engineRoles: [WRITER], includeAgrajagTools: true });
        expect(names(agrajag.tools)).toEqual(['plain', ...AGRAJAG]);
        expect(agrajag.filtered.count).toBe(0);
        expect(agrajag.tools[0].inputSchema).toBeNull();
        agrajag.tools.slice(1).forEach((x, i) => {
          expect(x).toMatchObject({
            description: AGRAJAG_TOOLS[i].description,
            status: 'OK',
            suffix: null,
            inputSchema: AGRAJAG_TOOLS[i].inputSchema,
          });
        });

        // They are SAFE_PROBE: a probe turn keeps them.
        const probe = await annotate({ tools: [tool('plain')], engineRoles: [WRITER], includeAgrajagTools: true, probeTurn: true });
        expect(names(probe.tools)).toEqual(AGRAJAG);
      });

      it('are absent unless asked for', async () => {
        const body = await annotate({ tools: [tool('plain')], engineRoles: [WRITER] });
        expect(names(body.tools)).toEqual(['plain']);
      });

      it('refuses an input tool of the same name when merging (400 on tools)', async () => {
        const res = await post('/v1/manifest/annotate', {
          tools: [tool(AGRAJAG[0])],
          engineRoles: [WRITER],
          includeAgrajagTools: true,
        }).expect(400);
        expect(res.body).toMatchObject({ error: 'INVALID_ARGUMENT', field: 'tools' });
        await post('/v1/manifest/annotate', { tools: [tool(AGRAJAG[0])], engineRoles: [WRITER] }).expect(200);
      });
    });
  });

  describe('tools that left with their client (D15b)', () => {
    const s1Turn = (extra: object = {}) =>
      annotate({ tools: [tool('mcp_search')], context: { sessionId: 's-1', userId: 'alice' }, timeZone: 'Europe/Berlin', ...extra });

    beforeEach(async () => {
      await disconnect(
        's-1',
        [{ name: 'client_shell' }, { name: 'client_file_read', description: 'Read a file on the user machine.' }],
        utc('13:58'),
      );
      await disconnect('s-2', [{ name: 'client_clipboard', description: 'Read the clipboard.' }], utc('13:59'));
      t.clock.set(utc('14:30'));
    });

    it("lists the session's DOWN client tools missing from the input, with their stored description", async () => {
      const body = await s1Turn();
      expect(names(body.tools)).toEqual(['mcp_search']);
      expect(body.departed).toEqual([
        {
          name: 'client_file_read',
          description: 'Read a file on the user machine. (unavailable since 15:58)',
          suffix: 'unavailable since 15:58',
          status: 'DOWN',
          retesting: false,
          doNotCall: true,
          hint: HINT,
          reason: {
            reason: 'LIVE_PROBLEM',
            matched: {
              scope: 'SESSION',
              scopeId: 's-1',
              by: 'system:foot',
              since: utc('13:58'),
              until: null,
              pinned: false,
              code: 'BACKEND_UNREACHABLE',
            },
            shadowed: [],
            why: expect.any(Array),
          },
          inputSchema: null,
        },
        expect.objectContaining({
          name: 'client_shell',
          description: 'unavailable since 15:58',
          suffix: 'unavailable since 15:58',
          doNotCall: true,
        }),
      ]);
    });

    it('for that session only', async () => {
      const s2 = await annotate({ tools: [], context: { sessionId: 's-2' } });
      expect(s2.departed.map((x) => [x.name, x.description])).toEqual([
        ['client_clipboard', 'Read the clipboard. (unavailable since 13:59)'],
      ]);
      expect((await annotate({ tools: [], context: { sessionId: 's-3' } })).departed).toEqual([]);
      expect((await annotate({ tools: [], context: { userId: 'alice' } })).departed).toEqual([]);
    });

    it('a tool still sent (even one filtered for this engine) is annotated in place, not listed as departed', async () => {
      const body = await s1Turn({
        tools: [tool('client_shell'), tool('client_file_read', { requiresEngineRoles: ['repair-actor'] })],
      });
      expect(body.tools).toEqual([
        expect.objectContaining({ name: 'client_shell', status: 'DOWN', suffix: 'unavailable since 15:58', doNotCall: true }),
      ]);
      expect(body.filtered.tools).toEqual([{ name: 'client_file_read', reason: 'MISSING_ENGINE_ROLE' }]);
      expect(body.departed).toEqual([]);
    });

    it('not on a probe turn: departed tools carry no SAFE_PROBE marker', async () => {
      const { result, commands, replies } = await toolHealthCommands(() =>
        s1Turn({ probeTurn: true, tools: [tool('probe', { safety: 'SAFE_PROBE' })] }),
      );
      expect(result.departed).toEqual([]);
      // The session's entries are not even read.
      expect(commands).toHaveLength(1);
      expect(replies.get(commands[0].requestId)!.filter((d) => d.scope === 'SESSION')).toEqual([]);
    });

    it('gone after the client reconnects', async () => {
      await post('/v1/sessions/s-1/client-reconnected', { source: 'foot', tools: ['client_shell', 'client_file_read'] }).expect(200);
      expect((await s1Turn()).departed).toEqual([]);
    });

    it('a DEGRADED or RETESTING session entry is not departed', async () => {
      await markIntermittent(at('SESSION', 's-4', 'client_flaky'));
      await markDown(at('SESSION', 's-4', 'client_back_soon'), { expectedRecoveryAt: utc('14:40') });
      t.clock.set(utc('14:45'));
      expect((await annotate({ tools: [], context: { sessionId: 's-4' } })).departed).toEqual([]);
    });
  });

  describe('explain (D16)', () => {
    it('NOT_REGISTERED only when nothing is known of the name', async () => {
      expect(await explain({ toolName: 'client_teleport', context: { sessionId: 's-1', userId: 'alice' }, registryKnows: false })).toEqual({
        code: 'NOT_REGISTERED',
        usable: false,
        message: 'Unknown tool: client_teleport',
        trace: { reason: 'DEFAULT_OK', matched: null, shadowed: [], why: expect.any(Array) },
      });
    });

    it('answers a name outside the tool-name character set without a read', async () => {
      const { result, commands } = await toolHealthCommands(() => explain({ toolName: 'search the web!', registryKnows: false }));
      expect(result).toMatchObject({ code: 'NOT_REGISTERED', message: 'Unknown tool: search the web!' });
      expect(commands).toHaveLength(0);
    });

    it('a client tool after its client disconnected: temporarily unreachable since HH:MM, not unknown', async () => {
      await disconnect('s-1', [{ name: 'client_file_read' }], utc('13:58'));
      t.clock.set(utc('14:30'));
      const body = {
        toolName: 'client_file_read',
        context: { sessionId: 's-1', userId: 'alice' },
        registryKnows: false,
        timeZone: 'Europe/Berlin',
      };
      const { result, commands } = await toolHealthCommands(() => explain(body));
      expect(commands).toHaveLength(1);
      expect(result).toEqual({
        code: 'BACKEND_UNREACHABLE',
        usable: false,
        message:
          'Tool client_file_read is temporarily unreachable since 15:58 (the client disconnected); do not call it until it reconnects.',
        trace: {
          reason: 'LIVE_PROBLEM',
          matched: {
            scope: 'SESSION',
            scopeId: 's-1',
            by: 'system:foot',
            since: utc('13:58'),
            until: null,
            pinned: false,
            code: 'BACKEND_UNREACHABLE',
          },
          shadowed: [],
          why: expect.any(Array),
        },
      });
      // Another session never lost it: nothing known there.
      expect((await explain({ ...body, context: { sessionId: 's-2' } })).code).toBe('NOT_REGISTERED');
    });

    it('after reconnect, with the registry knowing the name: usable, no error', async () => {
      await disconnect('s-1', [{ name: 'client_file_read' }], utc('13:58'));
      await post('/v1/sessions/s-1/client-reconnected', { source: 'foot', tools: ['client_file_read'] }).expect(200);
      const body = { toolName: 'client_file_read', context: { sessionId: 's-1' } };
      expect(await explain({ ...body, registryKnows: true })).toEqual({
        code: null,
        usable: true,
        message: 'Tool client_file_read is available.',
        trace: { reason: 'DEFAULT_OK', matched: null, shadowed: [], why: expect.any(Array) },
      });
      // Known to the store but served by no source: still not "unknown".
      expect(await explain({ ...body, registryKnows: false })).toMatchObject({ code: 'BACKEND_UNREACHABLE', usable: false });
    });

    it('an MCP tool DOWN at PROJECT', async () => {
      await markDown(at('PROJECT', 'p-1', 'mcp_search'), { expectedRecoveryAt: utc('15:00'), source: 'mcp-router' });
      t.clock.set(utc('14:30'));
      const body = { toolName: 'mcp_search', context: { userId: 'alice', projectId: 'p-1' }, registryKnows: true };
      expect(await explain(body)).toEqual({
        code: 'BACKEND_FAILED',
        usable: false,
        message:
          'Tool mcp_search is currently unavailable — expected back at 15:00 (DOWN at PROJECT scope); do not call it, plan without it.',
        trace: {
          reason: 'LIVE_PROBLEM',
          matched: {
            scope: 'PROJECT',
            scopeId: 'p-1',
            by: 'system:mcp-router',
            since: utc('14:00'),
            until: utc('15:00'),
            pinned: false,
            code: 'BACKEND_FAILED',
          },
          shadowed: [],
          why: expect.any(Array),
        },
      });
      expect(await explain({ ...body, context: { projectId: 'p-2' } })).toMatchObject({ code: null, usable: true });

      // The MCP connection closed: the registry lost the backend.
      await markDown(at('PROJECT', 'p-3', 'mcp_search'), { code: 'BACKEND_UNREACHABLE', source: 'mcp-router' });
      expect(
        await explain({ toolName: 'mcp_search', context: { projectId: 'p-3' }, registryKnows: false, timeZone: 'Europe/Berlin' }),
      ).toMatchObject({
        code: 'BACKEND_UNREACHABLE',
        usable: false,
        message: 'Tool mcp_search is unavailable since 16:30 (DOWN at PROJECT scope); do not call it, plan without it.',
      });
    });
  });

  describe('a 200-tool batch', () => {
    const N = 200;
    const toolName = (i: number) => `tool_${String(i).padStart(3, '0')}`;
    const CONTEXT = { userId: 'alice', projectId: 'p-1', tenantId: 't-1' };

    /** What the LLM must see for tool i at 14:30 UTC, derived from the scheme below by hand. */
    function expected(i: number, withSession: boolean) {
      const ok = { status: 'OK', suffix: null, retesting: false, doNotCall: false, reason: 'DEFAULT_OK', matched: null as string | null };
      const down = (suffix: string, matched: string) => ({
        status: 'DOWN',
        suffix,
        retesting: false,
        doNotCall: true,
        reason: 'LIVE_PROBLEM',
        matched,
      });
      switch (i % 10) {
        case 1:
          return down('unavailable since 13:00', 'GLOBAL');
        case 2:
          return down('currently unavailable — expected back at 15:00', 'PROJECT');
        case 3:
          return {
            ...ok,
            status: 'DEGRADED',
            suffix: 'intermittent — last failure 30 min ago, retry tolerated',
            reason: 'LIVE_PROBLEM',
            matched: 'USER',
          };
        case 5:
          return withSession ? down('unavailable since 13:58', 'SESSION') : ok;
        case 6:
          return { ...ok, status: 'DOWN', retesting: true, reason: 'RETESTING', matched: 'TENANT' };
        case 8:
          return down('unavailable since 13:00', 'GLOBAL');
        case 9:
          return {
            ...ok,
            status: 'DEGRADED',
            suffix: 'intermittent — last failure 30 min ago, retry tolerated',
            reason: 'LIVE_PROBLEM',
            matched: 'USER',
          };
        default:
          return ok; // 0: nothing stored; 4: Bob's entry; 7: another project's entry
      }
    }

    async function writeScheme(): Promise<void> {
      const writes: (() => Promise<unknown>)[] = [];
      for (let i = 0; i < N; i++) {
        const name = toolName(i);
        switch (i % 10) {
          case 1:
            writes.push(() => markDown(global(name), { since: utc('13:00') }));
            break;
          case 2:
            writes.push(() => markDown(at('PROJECT', 'p-1', name), { expectedRecoveryAt: utc('15:00') }));
            break;
          case 3:
            writes.push(() => markIntermittent(at('USER', 'alice', name)));
            break;
          case 4:
            writes.push(() => markDown(at('USER', 'bob', name)));
            break;
          case 6:
            writes.push(() => markDown(at('TENANT', 't-1', name), { expectedRecoveryAt: utc('14:10') }));
            break;
          case 7:
            writes.push(() => markDown(at('PROJECT', 'p-2', name)));
            break;
          case 8:
            writes.push(() => markDown(at('USER', 'alice', name), { expectedRecoveryAt: utc('14:10') }));
            writes.push(() => markDown(global(name), { since: utc('13:00') }));
            break;
          case 9:
            writes.push(() => markIntermittent(at('USER', 'alice', name)));
            writes.push(() => markDown(global(name), { since: utc('13:00') }));
            break;
        }
      }
      for (let i = 0; i < writes.length; i += 25) await Promise.all(writes.slice(i, i + 25).map((w) => w()));
      const clientTools = Array.from({ length: N }, (_, i) => i)
        .filter((i) => i % 10 === 5)
        .map((i) => ({ name: toolName(i) }));
      await disconnect('s-1', [...clientTools, { name: 'client_gone', description: 'Gone with the client.' }], utc('13:58'));
      await disconnect('s-2', [{ name: 'client_elsewhere' }], utc('13:58'));
    }

    it('gives exactly the expected output from the presence lists and ONE query for the batch', async () => {
      await writeScheme();
      await t.app.get(BookkeepingBuffer).flush();
      t.clock.set(utc('14:30'));
      const tools = Array.from({ length: N }, (_, i) => tool(toolName(i)));
      const project = (x: Annotated) => ({
        status: x.status,
        suffix: x.suffix,
        retesting: x.retesting,
        doNotCall: x.doNotCall,
        reason: x.reason.reason,
        matched: x.reason.matched?.scope ?? null,
      });

      for (const withSession of [false, true]) {
        const context = withSession ? { ...CONTEXT, sessionId: 's-1' } : CONTEXT;
        const { result, commands, replies } = await toolHealthCommands(() => annotate({ tools, context }));

        expect(result.tools.map(project)).toEqual(Array.from({ length: N }, (_, i) => expected(i, withSession)));
        expect(names(result.tools)).toEqual(tools.map((x) => x.name));
        result.tools.forEach((x, i) => {
          expect(x.description).toBe(x.suffix ? `Does ${toolName(i)}. (${x.suffix})` : `Does ${toolName(i)}.`);
          expect(x.hint).toBe(x.doNotCall ? HINT : null);
        });
        expect(byName(result.tools).get(toolName(9))!.reason.shadowed).toEqual([{ scope: 'GLOBAL', scopeId: null, status: 'DOWN' }]);
        expect(byName(result.tools).get(toolName(8))!.reason.shadowed).toEqual([]);

        // ONE command — no getMore, nothing written: the context's presence lists and, by them,
        // exactly the documents that exist — the manifest's tools in those scopes, and with a
        // session every entry of the session (D15b) — instead of every cascade key (180 documents
        // match with the session: more than a default first batch).
        expect(commands.map((c) => [c.commandName, c.command.aggregate])).toEqual([['aggregate', READ_ANCHOR_COLLECTION]]);
        const stored = await t.connection
          .collection('tool_health')
          .find({}, { projection: { _id: 1, scope: 1, scopeId: 1, toolName: 1 } })
          .toArray();
        const scopes = new Set(
          Object.entries({
            SESSION: withSession ? 's-1' : undefined,
            USER: CONTEXT.userId,
            PROJECT: CONTEXT.projectId,
            TENANT: CONTEXT.tenantId,
            GLOBAL: null,
          }).map(([s, id]) => `${s}|${id}`),
        );
        const manifestNames = new Set(tools.map((x) => x.name));
        const existing = stored
          .filter((d) => scopes.has(`${d.scope}|${d.scopeId}`) && (manifestNames.has(d.toolName) || (withSession && d.scope === 'SESSION')))
          .map((d) => d._id)
          .sort();
        expect(
          replies
            .get(commands[0].requestId)!
            .map((d) => d._id)
            .sort(),
        ).toEqual(existing);
        expect(existing.length).toBeLessThan(N * (withSession ? 5 : 4));
        if (withSession) {
          expect(result.departed.map((x) => [x.name, x.description])).toEqual([
            ['client_gone', 'Gone with the client. (unavailable since 13:58)'],
          ]);
        } else {
          expect(result.departed).toEqual([]);
        }
      }
    });
  });

  describe('what the manifest read fetches (P116)', () => {
    it('only the fields the annotation reads: history and cooldowns stay on the server, the answer is the lookup’s', async () => {
      // Entries with history (several writes each) and cooldowns, at three scopes of the context.
      const context = { sessionId: 's-1', userId: 'alice', projectId: 'p-1', tenantId: 't-1' };
      for (let i = 0; i < 4; i++) {
        await markDown(global('jira'), { since: utc(`13:0${i}`) });
        await markIntermittent(at('PROJECT', 'p-1', 'jira'));
        await post('/v1/cooldowns', { ...global('jira'), errorSignature: `http-50${i}`, classification: 'TECHNICALLY_BROKEN' }).expect(200);
      }
      await markDown(at('USER', 'alice', 'github'), { expectedRecoveryAt: utc('15:00') });
      await post('/v1/cooldowns', {
        ...at('USER', 'alice', 'github'),
        errorSignature: 'http-403',
        classification: 'USER_PERMISSION',
        userId: 'alice',
      }).expect(200);
      await disconnect('s-1', [{ name: 'client_gone', description: 'Gone with the client.' }], utc('13:58'));
      await t.app.get(BookkeepingBuffer).flush();
      const stored = await t.connection.collection('tool_health').findOne({ toolName: 'jira', scope: 'GLOBAL' });
      expect(stored!.history.length).toBeGreaterThan(1);
      expect(stored!.cooldowns).toHaveLength(4);

      const client = t.connection.getClient();
      const replies: CommandSucceededEvent[] = [];
      const started: CommandStartedEvent[] = [];
      const onStart = (event: CommandStartedEvent) => {
        if (event.commandName === 'aggregate' && event.command.aggregate === READ_ANCHOR_COLLECTION && !isBackgroundCommand(event))
          started.push(event);
      };
      const onReply = (event: CommandSucceededEvent) => {
        if (started.some((s) => s.requestId === event.requestId)) replies.push(event);
      };
      client.on('commandStarted', onStart);
      client.on('commandSucceeded', onReply);
      let result: Annotation;
      try {
        result = await annotate({ tools: [tool('jira'), tool('github'), tool('unknown')], context });
      } finally {
        client.off('commandStarted', onStart);
        client.off('commandSucceeded', onReply);
      }

      expect(started).toHaveLength(1);
      const [answer] = (replies[0].reply as { cursor: { firstBatch: { entries: Record<string, unknown>[] }[] } }).cursor.firstBatch;
      const documents = answer.entries;
      expect(documents.map((d) => d._id).sort()).toEqual(
        ['GLOBAL|%00|jira', 'PROJECT|p-1|jira', 'SESSION|s-1|client_gone', 'USER|alice|github'].sort(),
      );
      for (const d of documents) {
        for (const field of ['history', 'cooldowns', 'tenantId', 'lastCheckedAt', 'version', 'createdAt', 'updatedAt']) {
          expect(d).not.toHaveProperty(field);
        }
        expect(d).toHaveProperty('status');
      }
      // The same tools judged from whole documents (the lookup path) read alike.
      const lookups = (await post('/v1/availability/lookup', { toolNames: ['jira', 'github', 'unknown'], context }).expect(200)).body as {
        status: string;
        retesting: boolean;
        trace: Trace;
      }[];
      expect(result!.tools.map((x) => [x.status, x.retesting, x.reason])).toEqual(lookups.map((l) => [l.status, l.retesting, l.trace]));
      expect(result!.tools.map((x) => x.suffix)).toEqual([
        'intermittent — last failure 1 min ago, retry tolerated',
        'currently unavailable — expected back at 15:00',
        null,
      ]);
      expect(result!.departed.map((x) => x.description)).toEqual(['Gone with the client. (unavailable since 13:58)']);
    });
  });

  describe('input checks and access', () => {
    it.each([
      ['duplicate tool names', { tools: [tool('a'), tool('b'), tool('a')] }, 'tools'],
      ['an unknown time zone', { tools: [tool('a')], timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      ['an empty time zone', { tools: [tool('a')], timeZone: '' }, 'timeZone'],
      ['more than 500 tools', { tools: Array.from({ length: 501 }, (_, i) => tool(`t${i}`, { description: '' })) }, 'tools'],
      ['a description over 4000 characters', { tools: [tool('a', { description: 'x'.repeat(4001) })] }, 'tools[0].description'],
      ['a tool without a description', { tools: [{ name: 'a' }] }, 'tools[0].description'],
      ['a tool name outside the character set', { tools: [tool('a b')] }, 'tools[0].name'],
      ['an unknown safety', { tools: [tool('a', { safety: 'HARMLESS' })] }, 'tools[0].safety'],
      ['roles that are not strings', { tools: [tool('a')], engineRoles: [1] }, 'engineRoles[0]'],
      ['a context id with an operator', { tools: [tool('a')], context: { sessionId: { $gt: '' } } }, 'context.sessionId'],
      ['an unknown field', { tools: [tool('a')], turn: 7 }, 'turn'],
      ['no tools', { context: {} }, 'tools'],
    ])('annotate refuses %s (400)', async (_, body, field) => {
      const res = await post('/v1/manifest/annotate', body).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'INVALID_ARGUMENT', field });
    });

    it('accepts 500 tools and an empty manifest', async () => {
      const many = await annotate({ tools: Array.from({ length: 500 }, (_, i) => tool(`t${i}`, { description: '' })) });
      expect(many.tools).toHaveLength(500);
      expect(await annotate({ tools: [] })).toEqual({
        tools: [],
        departed: [],
        filtered: { count: 0, byReason: { MISSING_ENGINE_ROLE: 0, NOT_SAFE_PROBE: 0 }, tools: [] },
      });
    });

    it('takes null for every optional field, as the OpenAPI document says (nullable): the defaults apply', async () => {
      await markDown(global('a'), { since: utc('13:45') });
      const nulls = { context: null, engineRoles: null, timeZone: null, probeTurn: null, includeAgrajagTools: null };
      const body = await annotate({ tools: [{ ...tool('a'), safety: null, requiresEngineRoles: null }], ...nulls });
      expect(body.tools).toEqual([expect.objectContaining({ name: 'a', suffix: 'unavailable since 13:45' })]);
      expect(await explain({ toolName: 'a', registryKnows: true, context: null, timeZone: null })).toMatchObject({
        code: 'BACKEND_FAILED',
      });
    });

    it.each([
      ['no registryKnows', { toolName: 'a' }, 'registryKnows'],
      ['an unknown time zone', { toolName: 'a', registryKnows: true, timeZone: 'Nowhere/Else' }, 'timeZone'],
      ['an empty name', { toolName: '', registryKnows: true }, 'toolName'],
    ])('explain refuses %s (400)', async (_, body, field) => {
      const res = await post('/v1/manifest/explain', body).expect(400);
      expect(res.body).toMatchObject({ error: 'INVALID_ARGUMENT', field });
    });

    it('is for the dispatcher (and admin)', async () => {
      const annotation = { tools: [tool('a')] };
      const question = { toolName: 'a', registryKnows: false };
      await t.http.post('/v1/manifest/annotate').send(annotation).expect(401);
      for (const key of [KEYS.writer, KEYS.audit]) {
        await post('/v1/manifest/annotate', annotation, key).expect(403);
        await post('/v1/manifest/explain', question, key).expect(403);
      }
      for (const key of [KEYS.dispatcher, KEYS.admin]) {
        await post('/v1/manifest/annotate', annotation, key).expect(200);
        await post('/v1/manifest/explain', question, key).expect(200);
      }
    });

    it('is described in the OpenAPI document, nullable fields marked', async () => {
      const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
      expect(doc.paths['/v1/manifest/annotate'].post.responses['200'].content['application/json'].schema.$ref).toBe(
        '#/components/schemas/AnnotatedManifestView',
      );
      expect(doc.paths['/v1/manifest/explain'].post.requestBody.content['application/json'].schema.$ref).toBe(
        '#/components/schemas/ExplainToolDto',
      );
      const schemas = doc.components.schemas;
      // OpenAPI 3.1 (P240): null is one of the allowed types, or the other branch of a reference
      expect(schemas.AnnotatedToolView.properties.suffix).toMatchObject({ type: ['string', 'null'] });
      expect(schemas.AnnotatedToolView.properties.hint).toMatchObject({ type: ['string', 'null'] });
      expect(schemas.AnnotatedToolView.required).toEqual(
        expect.arrayContaining(['name', 'description', 'suffix', 'status', 'retesting', 'doNotCall', 'hint', 'reason']),
      );
      expect(schemas.CascadeTraceView.properties.matched).toMatchObject({
        anyOf: [{ $ref: '#/components/schemas/CascadeMatchView' }, { type: 'null' }],
      });
      expect(schemas.CascadeMatchView.properties.until).toMatchObject({ format: 'date-time', type: ['string', 'null'] });
      expect(schemas.ExplanationView.properties.code.anyOf).toEqual([{ $ref: '#/components/schemas/ToolErrorCode' }, { type: 'null' }]);
      expect(schemas.ToolManifestDto.properties.description.maxLength).toBe(4000);
      expect(schemas.AnnotateManifestDto.properties.tools.maxItems).toBe(500);
      expect(Object.keys(schemas.FilteredByReasonView.properties).sort()).toEqual(['MISSING_ENGINE_ROLE', 'NOT_SAFE_PROBE']);
      for (const field of ['context', 'engineRoles', 'timeZone', 'probeTurn', 'includeAgrajagTools']) {
        const property = schemas.AnnotateManifestDto.properties[field];
        expect({
          field,
          nullable: (property.type ?? property.anyOf.map((branch: { type?: string }) => branch.type)).includes('null'),
        }).toEqual({
          field,
          nullable: true,
        });
      }
      expect(schemas.AnnotateManifestDto.required).toEqual(['tools']);
      expect(schemas.ExplainToolDto.required.sort()).toEqual(['registryKnows', 'toolName']);
    });
  });
});
