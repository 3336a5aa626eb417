import fc from 'fast-check';
import { BookkeepingBuffer } from '../src/features/outcomes/bookkeeping-buffer.service';
import { EventRelay } from '../src/write-path/event-relay.service';
import { FakeClock } from './support/fake-clock';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * P354: a write to a document its instance last wrote reads only the document's stamp (version,
 * life, pending events) and builds on the document it kept. Two instances share one database, and
 * whatever the other instance, the bookkeeping flush, the event relay or a hard delete did in
 * between, every write must build on the stored document: nothing another writer wrote is lost, and
 * the answer of every write is what a lookup then reads.
 */
describe('writes built on the documents an instance kept (P354), against other writers', () => {
  const clock = new FakeClock('2026-05-23T14:00:00.000Z');
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ clock });
    b = await createTestApp({ clock });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  beforeEach(() => resetDatabase(a.connection));

  const PROJECT = 'p-kept';
  const TOOLS = ['t0', 't1', 't2'];
  const post = (t: TestApp, path: string, body: object, key = KEYS.dispatcher) => t.http.post(path).set('x-api-key', key).send(body);
  const lookupText = async (toolName: string, scope = 'PROJECT', scopeId: string | null = PROJECT) =>
    (
      await a.http
        .get(`/v1/entries?scope=${scope}&toolName=${toolName}${scopeId ? `&scopeId=${scopeId}` : ''}`)
        .set('x-api-key', KEYS.dispatcher)
        .expect(200)
    ).text;
  const gql = async (t: TestApp, query: string, variables: object) => {
    const res = await t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query, variables }).expect(200);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };

  type Entry = { toolName: string; version: number; history: { note: string; status: string }[] };
  type Op =
    | { kind: 'one'; via: 'a' | 'b'; tool: number; degraded: boolean }
    | { kind: 'bulk'; via: 'a' | 'b'; tools: number[]; degraded: boolean }
    | { kind: 'delete'; via: 'a' | 'b'; tool: number };

  /** What the entries must hold: each tool's notes in order (the history limit is 20) and its version. */
  class Model {
    readonly notes = new Map<string, string[]>();
    wrote(tool: string, note: string): void {
      this.notes.set(tool, [...(this.notes.get(tool) ?? []), note]);
    }
    expectEntry(entry: Entry): void {
      const notes = this.notes.get(entry.toolName) ?? [];
      expect({ tool: entry.toolName, version: entry.version, notes: entry.history.map((h) => h.note) }).toEqual({
        tool: entry.toolName,
        version: notes.length,
        notes: notes.slice(-20),
      });
    }
  }

  async function run(op: Op, step: number, model: Model): Promise<void> {
    const t = op.via === 'a' ? a : b;
    const note = `${op.via}-${step}`;
    const mark = (degraded: boolean) => (degraded ? 'mark-intermittent' : 'mark-unavailable');
    const fields = (degraded: boolean) => ({
      scope: 'PROJECT',
      scopeId: PROJECT,
      source: 'kept',
      note,
      code: degraded ? undefined : 'BACKEND_UNREACHABLE',
    });
    if (op.kind === 'one') {
      const res = await post(t, `/v1/health/${mark(op.degraded)}`, { ...fields(op.degraded), toolName: TOOLS[op.tool] }).expect(200);
      model.wrote(TOOLS[op.tool], note);
      model.expectEntry(res.body);
      expect(res.text).toBe(await lookupText(TOOLS[op.tool]));
    } else if (op.kind === 'bulk') {
      const toolNames = op.tools.map((i) => TOOLS[i]);
      const res = await post(t, `/v1/health/bulk/${mark(op.degraded)}`, { ...fields(op.degraded), toolNames }).expect(200);
      for (const [i, result] of (res.body.results as { entry: Entry }[]).entries()) {
        model.wrote(toolNames[i], note);
        model.expectEntry(result.entry);
        expect(JSON.stringify(result.entry)).toBe(await lookupText(toolNames[i]));
      }
    } else {
      const exists = model.notes.has(TOOLS[op.tool]);
      const res = await t.http
        .post('/graphql')
        .set('x-api-key', KEYS.admin)
        .send({
          query: 'mutation($i: HealthKeyInput!) { deleteToolHealth(input: $i) { id } }',
          variables: { i: { scope: 'PROJECT', scopeId: PROJECT, toolName: TOOLS[op.tool] } },
        })
        .expect(200);
      expect(Boolean(res.body.data?.deleteToolHealth)).toBe(exists);
      model.notes.delete(TOOLS[op.tool]);
    }
  }

  const via = fc.constantFrom<'a' | 'b'>('a', 'b');
  const tool = fc.integer({ min: 0, max: TOOLS.length - 1 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('one' as const), via, tool, degraded: fc.boolean() }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('bulk' as const),
        via,
        tools: fc.uniqueArray(tool, { minLength: 2, maxLength: TOOLS.length }),
        degraded: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), via, tool }) },
  );

  it('generated sequences of single and bulk writes and deletes through two instances: every write builds on the stored document', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 30 }), async (ops) => {
        await resetDatabase(a.connection);
        const model = new Model();
        for (const [step, o] of ops.entries()) await run(o, step, model);
        for (const name of TOOLS) {
          if (model.notes.has(name)) model.expectEntry(JSON.parse(await lookupText(name)));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a write after the event relay took the pending events does not put them back: each status change is one event', async () => {
    const toolName = 'relayed';
    const down = (t: TestApp, note: string) =>
      post(t, '/v1/health/mark-unavailable', {
        scope: 'PROJECT',
        scopeId: PROJECT,
        toolName,
        code: 'BACKEND_UNREACHABLE',
        source: 'kept',
        note,
      }).expect(200);
    const degraded = (t: TestApp, note: string) =>
      post(t, '/v1/health/mark-intermittent', { scope: 'PROJECT', scopeId: PROJECT, toolName, source: 'kept', note }).expect(200);
    // The lease holder relays each write at once, within a bounded wait a loaded machine can
    // outlast. Each step waits for that pass, so every write after the first builds on a document
    // whose events the relay has taken; before the pass, what is pending is the write's own alone.
    const step = async (write: Promise<unknown>) => {
      await write;
      const doc = await a.connection.db!.collection('tool_health').findOne({ toolName });
      const versions = ((doc?.pendingEvents ?? []) as { id: string }[]).map((e) => Number(e.id.split(':')[2]));
      expect(versions.filter((v) => v !== doc!.version)).toEqual([]);
      for (const t of [a, b]) await t.app.get(EventRelay).drain();
    };
    await step(down(a, 'first')); // OK → DOWN: an event
    await step(degraded(a, 'second')); // DOWN → DEGRADED
    await step(down(b, 'third')); // DEGRADED → DOWN, by the other instance
    await step(degraded(a, 'fourth'));

    const stored = await a.connection.db!.collection('tool_health').findOne({ toolName });
    expect(stored?.pendingEvents ?? []).toEqual([]);
    const events = await a.connection
      .db!.collection('health_events')
      .find({ toolName, type: 'STATUS_CHANGED' })
      .sort({ position: 1 })
      .toArray();
    expect(events.map((e) => e.status)).toEqual(['DOWN', 'DEGRADED', 'DOWN', 'DEGRADED']);
  });

  it("a write after a bookkeeping flush keeps the flush's counts (the flush moves the version)", async () => {
    const global = { scope: 'GLOBAL', toolName: 'jira' };
    await post(a, '/v1/cooldowns', { ...global, errorSignature: 'http-502', classification: 'INTERMITTENT' }).expect(200);
    await post(a, '/v1/health/mark-unavailable', { ...global, code: 'BACKEND_FAILED', source: 'kept', note: 'a knows it' }).expect(200);
    for (const [t, i] of [
      [b, 0],
      [b, 1],
      [a, 2],
    ] as const) {
      const res = await post(t, '/v1/outcomes/failure', {
        toolName: 'jira',
        context: { userId: `u-${i}`, projectId: 'p-1' },
        code: 'BACKEND_FAILED',
        errorSignature: 'http-502',
      }).expect(200);
      expect(res.body.reason).toBe('IN_COOLDOWN');
    }
    await Promise.all([a.app.get(BookkeepingBuffer).flush(), b.app.get(BookkeepingBuffer).flush()]);
    const flushed = JSON.parse(await lookupText('jira', 'GLOBAL', null));

    const res = await post(a, '/v1/health/mark-unavailable', {
      ...global,
      code: 'BACKEND_FAILED',
      source: 'kept',
      note: 'after the flush',
    }).expect(200);

    expect(res.body.version).toBe(flushed.version + 1);
    expect(res.body.cooldowns[0].hits).toBe(flushed.cooldowns[0].hits);
    expect(res.text).toBe(await lookupText('jira', 'GLOBAL', null));
  });

  it('a document deleted and made again by the other instance is built on as the new one', async () => {
    const body = (note: string) => ({
      scope: 'PROJECT',
      scopeId: PROJECT,
      toolNames: ['x', 'y'],
      code: 'BACKEND_UNREACHABLE',
      source: 'kept',
      note,
    });
    await post(a, '/v1/health/bulk/mark-unavailable', body('old life')).expect(200);
    await post(a, '/v1/health/bulk/mark-unavailable', body('old life again')).expect(200);
    await gql(b, 'mutation($i: HealthKeyInput!) { deleteToolHealth(input: $i) { id } }', {
      i: { scope: 'PROJECT', scopeId: PROJECT, toolName: 'x' },
    });
    await post(b, '/v1/health/mark-unavailable', { ...body('new life'), toolNames: undefined, toolName: 'x' }).expect(200);
    await post(b, '/v1/health/mark-unavailable', { ...body('new life again'), toolNames: undefined, toolName: 'x' }).expect(200);

    // The new life is at version 2, as the old one was: only its life tells them apart.
    const res = await post(a, '/v1/health/bulk/mark-unavailable', body('after')).expect(200);

    const [x, y] = res.body.results.map((r: { entry: Entry }) => r.entry);
    expect(x.history.map((h: { note: string }) => h.note)).toEqual(['new life', 'new life again', 'after']);
    expect(y.history.map((h: { note: string }) => h.note)).toEqual(['old life', 'old life again', 'after']);
    expect(JSON.stringify(x)).toBe(await lookupText('x'));
  });
});
