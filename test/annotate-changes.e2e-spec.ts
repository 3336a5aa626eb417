import fc from 'fast-check';
import { CONTEXT, T0, TOOL, buildState, stateArb } from './support/evaluation-states';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 27 / D23: `POST /v1/manifest/annotate/changes` is the full annotation filtered — the
 * visible tools that are not plainly usable (a suffix, or do not call), each exactly as the full
 * answer lists it, the count of the others, the same departed and filtered tools. A property over
 * the D20 states (test/support/evaluation-states.ts) plus a client that left, at generated times
 * and with generated manifests, compared with the full answer of the same request.
 */
const MIN = 60_000;
const OTHER_TOOLS = ['calculator', 'github_search', 'client_file_read'];

const manifestArb = fc.record({
  described: fc.array(fc.boolean(), { minLength: 1 + OTHER_TOOLS.length, maxLength: 1 + OTHER_TOOLS.length }),
  safeTool: fc.boolean(),
  writerOnly: fc.boolean(),
  engineRoles: fc.constantFrom([], ['tool-health-writer']),
  probeTurn: fc.boolean(),
  includeAgrajagTools: fc.boolean(),
  withSession: fc.boolean(),
  sendsLeftTool: fc.boolean(),
  timeZone: fc.constantFrom('UTC', 'Europe/Berlin'),
  minutesLater: fc.integer({ min: 0, max: 300 }),
  includeReasons: fc.boolean(),
});

describe('annotation by difference (issue 27, D23)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_TICK_MS: '0', MAINTENANCE_CACHE_MS: '0' } });
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) => t.http.post(path).set('x-api-key', KEYS.dispatcher).send(body);

  it('equals the full annotation filtered to the tools that are not plainly usable', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, manifestArb, async (state, m) => {
        await t.reset();
        t.clock.set(T0);
        await buildState(t, state);
        // A client tool that left with its client (D15b): departed unless the manifest still sends it.
        await post('/v1/sessions/s1/client-disconnected', {
          source: 'gateway',
          tools: [{ name: 'client_left', description: 'Left.' }],
        }).expect(200);
        t.clock.advance(m.minutesLater * MIN);

        const names = [TOOL, ...OTHER_TOOLS, ...(m.sendsLeftTool ? ['client_left'] : [])];
        const full = names.map((name, i) => ({
          name,
          description: `Tool ${name}.`,
          ...(i === 1 && m.safeTool ? { safety: 'SAFE_PROBE' } : {}),
          ...(i === 2 && m.writerOnly ? { requiresEngineRoles: ['tool-health-writer'] } : {}),
        }));
        const byDifference = full.map((tool, i) => ((m.described[i] ?? true) ? tool : { ...tool, description: undefined }));
        const turn = {
          context: m.withSession ? { ...CONTEXT, sessionId: 's1' } : CONTEXT,
          engineRoles: m.engineRoles,
          probeTurn: m.probeTurn,
          includeAgrajagTools: m.includeAgrajagTools,
          timeZone: m.timeZone,
        };
        const whole = (await post('/v1/manifest/annotate', { ...turn, tools: full }).expect(200)).body;
        const changes = (
          await post('/v1/manifest/annotate/changes', { ...turn, tools: byDifference, includeReasons: m.includeReasons }).expect(200)
        ).body;

        const listed = whole.tools.filter((tool: { suffix: string | null; doNotCall: boolean }) => tool.suffix !== null || tool.doNotCall);
        const sentWithout = new Set(byDifference.filter((tool) => tool.description === undefined).map((tool) => tool.name));
        expect(changes).toEqual({
          tools: listed.map((tool: { name: string; description: string; reason: unknown }) => ({
            ...tool,
            description: sentWithout.has(tool.name) ? null : tool.description,
            reason: m.includeReasons ? tool.reason : null,
          })),
          plain: whole.tools.length - listed.length,
          departed: whole.departed,
          filtered: whole.filtered,
        });
      }),
      { numRuns: 40, seed: 23 },
    );
  }, 600_000);

  it('answers a 200-tool turn with 5 problems in a few hundred bytes per problem', async () => {
    await t.reset();
    t.clock.set(T0);
    for (let i = 0; i < 5; i++) {
      await post('/v1/health/mark-unavailable', {
        scope: 'GLOBAL',
        toolName: `tool-${i * 40}`,
        code: 'BACKEND_FAILED',
        source: 'probe',
      }).expect(200);
    }
    const tools = Array.from({ length: 200 }, (_, i) => ({ name: `tool-${i}` }));
    const res = await post('/v1/manifest/annotate/changes', { tools, context: CONTEXT }).expect(200);
    expect(res.body.plain).toBe(195);
    expect(res.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['tool-0', 'tool-40', 'tool-80', 'tool-120', 'tool-160']);
    expect(res.body.tools[0]).toMatchObject({
      description: null,
      suffix: 'unavailable since 14:00',
      doNotCall: true,
      status: 'DOWN',
      reason: null,
    });
    // Reported, not asserted as a speed: the size is what the caller parses each turn.
    process.stdout.write(`annotate/changes, 200 tools with 5 problems: ${Buffer.byteLength(res.text)} bytes\n`);
  });

  it('refuses what the full annotation refuses, naming the field', async () => {
    const res = await post('/v1/manifest/annotate/changes', { tools: [{ name: 'a b' }] }).expect(400);
    expect(res.body.field).toBe('tools[0].name');
    const dup = await post('/v1/manifest/annotate/changes', { tools: [{ name: 'x' }, { name: 'x' }] }).expect(400);
    expect(dup.body.field).toBe('tools');
    await t.http.post('/v1/manifest/annotate/changes').set('x-api-key', KEYS.audit).send({ tools: [] }).expect(403);
  });
});
