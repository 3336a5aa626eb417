import fc from 'fast-check';
import { CommandStartedEvent } from 'mongodb';
import { EventRelay } from '../src/write-path/event-relay.service';
import { CLASSES, CONTEXT, T0, TOOL, buildState, stateArb } from './support/evaluation-states';
import { KEYS, TestApp, createTestApp, isBackgroundCommand, testDatabaseUri } from './support/test-app';

/**
 * Issue 27 / D22: `POST /v1/outcomes/batch` answers each report exactly as its single route
 * would, applies them in order, and refuses a bad one alone.
 *
 * The property runs two services with identical histories on two databases: one is sent each
 * generated mix as one batch, the other the same reports one by one on the single routes, both
 * from the same generated state (the D20 states of call-evaluation-readers). Answers, stored
 * documents and events must be the same.
 */
const FLUSH_AT_ONCE = { BOOKKEEPING_FLUSH_MS: '0', WIDER_EVIDENCE_FLUSH_MS: '0', MAINTENANCE_TICK_MS: '0', MAINTENANCE_CACHE_MS: '0' };

function otherDatabase(suffix: string): string {
  const url = new URL(testDatabaseUri());
  url.pathname = `${url.pathname}_${suffix}`;
  return url.toString();
}

const contextArb = fc.constantFrom<Record<string, string> | undefined>(
  CONTEXT,
  { ...CONTEXT, sessionId: 's1' },
  { userId: 'bob', projectId: 'p1', tenantId: 'acme' },
  { projectId: 'p1' },
  {},
  undefined,
);
const successArb = fc.record(
  {
    outcome: fc.constant('success'),
    toolName: fc.constantFrom(TOOL, 'confluence'),
    context: contextArb,
    errorSignatures: fc.constantFrom(['http-502'], ['timeout'], ['http-502', 'timeout']),
  },
  { requiredKeys: ['outcome', 'toolName'] },
);
const failureArb = fc.record(
  {
    outcome: fc.constant('failure'),
    toolName: fc.constantFrom(TOOL, 'confluence'),
    context: contextArb,
    code: fc.constantFrom('BACKEND_FAILED', 'BACKEND_UNREACHABLE', 'NOT_REGISTERED'),
    errorSignature: fc.constantFrom('http-502', 'timeout'),
    classification: fc.constantFrom(...CLASSES),
    message: fc.constant('502 Bad Gateway'),
  },
  { requiredKeys: ['outcome', 'toolName', 'code', 'errorSignature'] },
);
// A few reports each single route refuses: a name outside the id rule, a missing code, an unknown field.
const badArb = fc.constantFrom<Record<string, unknown>>(
  { outcome: 'failure', toolName: 'jira search', code: 'BACKEND_FAILED', errorSignature: 'http-502' },
  { outcome: 'failure', toolName: TOOL, errorSignature: 'http-502' },
  { outcome: 'success', toolName: TOOL, colour: 'red' },
);
const itemsArb = fc.array(
  fc.oneof({ weight: 4, arbitrary: successArb }, { weight: 4, arbitrary: failureArb }, { weight: 1, arbitrary: badArb }),
  {
    minLength: 1,
    maxLength: 12,
  },
);

/** A stored document without what differs between two lives of it (random life id, relayed events, flush ids). */
function comparable(doc: Record<string, unknown>): Record<string, unknown> {
  const { life: _life, pendingEvents: _pending, ...rest } = doc;
  for (const key of Object.keys(rest)) if (/flush/i.test(key)) delete rest[key];
  return rest;
}

describe('POST /v1/outcomes/batch (issue 27, D22)', () => {
  let batched: TestApp;
  let single: TestApp;

  beforeAll(async () => {
    batched = await createTestApp({ env: FLUSH_AT_ONCE });
    single = await createTestApp({ env: { ...FLUSH_AT_ONCE, MONGODB_URI: otherDatabase('singles') } });
  });
  afterAll(async () => {
    await batched.close();
    await single.close();
  });
  beforeEach(async () => {
    await batched.reset();
    await single.reset();
    batched.clock.set(T0);
    single.clock.set(T0);
  });

  const post = (t: TestApp, path: string, body: unknown, key: string = KEYS.dispatcher) =>
    t.http
      .post(path)
      .set('x-api-key', key)
      .send(body as object);
  const stripOutcome = ({ outcome: _o, ...rest }: Record<string, unknown>) => rest;

  async function stored(t: TestApp): Promise<unknown[]> {
    const docs = await t.connection.db!.collection('tool_health').find({}).sort({ _id: 1 }).toArray();
    return docs.map((d) => comparable(d as Record<string, unknown>));
  }

  async function events(t: TestApp): Promise<unknown[]> {
    await t.app.get(EventRelay).drain();
    const page = (await t.http.get('/v1/events?limit=500').set('x-api-key', KEYS.audit).expect(200)).body;
    // Ids carry the document's random life; what happened, in order, is the rest.
    return page.events.map(({ id: _id, position: _p, ...event }: Record<string, unknown>) => event);
  }

  it('answers a generated mix exactly as the single routes, leaving the same documents and events', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, itemsArb, async (state, items) => {
        for (const t of [batched, single]) {
          await t.reset();
          t.clock.set(T0);
          await buildState(t, state);
        }
        const answer = await post(batched, '/v1/outcomes/batch', { items }).expect(200);
        const one: unknown[] = [];
        for (const item of items) {
          const path = item.outcome === 'failure' ? '/v1/outcomes/failure' : '/v1/outcomes/success';
          const res = await post(single, path, stripOutcome(item));
          // As when the relay keeps up: each report's events are published before the next report.
          await single.app.get(EventRelay).drain();
          one.push(res.status === 200 ? { status: 200, [item.outcome as string]: res.body } : { status: res.status, error: res.body });
        }
        expect(answer.body.results).toEqual(one);
        expect(await stored(batched)).toEqual(await stored(single));
        expect(await events(batched)).toEqual(await events(single));
      }),
      { numRuns: 25, seed: 27 },
    );
  }, 600_000);

  it('refuses a bad report alone: the good ones around it are applied and answered', async () => {
    const good = { outcome: 'failure', toolName: TOOL, context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-502' };
    const res = await post(batched, '/v1/outcomes/batch', {
      items: [
        good,
        { ...good, toolName: 'jira search' },
        'not an object',
        { ...good, outcome: 'maybe' },
        { outcome: 'success', toolName: TOOL, context: CONTEXT },
      ],
    }).expect(200);
    const [first, bad, notObject, unknownKind, last] = res.body.results;
    expect(first).toMatchObject({ status: 200, failure: { spawn: true, reason: 'ELIGIBLE' } });
    expect(bad).toEqual({ status: 400, error: expect.objectContaining({ statusCode: 400, error: 'INVALID_ARGUMENT', field: 'toolName' }) });
    expect(bad.error.message).toMatch(/^toolName: /);
    expect(notObject).toEqual({ status: 400, error: expect.objectContaining({ field: 'body' }) });
    expect(unknownKind).toEqual({
      status: 400,
      error: expect.objectContaining({ field: 'outcome', message: 'outcome: must be one of success, failure' }),
    });
    expect(last).toEqual({ status: 200, success: { status: 'OK', changed: [] } });
    // The same bad report on its single route: the same answer.
    const alone = await post(batched, '/v1/outcomes/failure', { ...stripOutcome(good), toolName: 'jira search' }).expect(400);
    expect(bad.error).toEqual(alone.body);
  });

  it('takes 500 reports and answers 500, in order; 501 is refused whole, naming items', async () => {
    const items = Array.from({ length: 500 }, (_, i) =>
      i % 20 === 0
        ? { outcome: 'failure', toolName: `tool-${i}`, context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-502' }
        : { outcome: 'success', toolName: `tool-${i}`, context: CONTEXT },
    );
    const res = await post(batched, '/v1/outcomes/batch', { items }).expect(200);
    expect(res.body.results).toHaveLength(500);
    res.body.results.forEach((r: Record<string, any>, i: number) => {
      if (i % 20 === 0) expect(r).toMatchObject({ status: 200, failure: { spawn: true, coalescingKey: `tool-${i}:http-502` } });
      else expect(r).toEqual({ status: 200, success: { status: 'OK', changed: [] } });
    });
    const over = await post(batched, '/v1/outcomes/batch', { items: [...items, items[1]] }).expect(400);
    expect(over.body).toMatchObject({ field: 'items', message: 'items: must hold at most 500 items' });
    await post(batched, '/v1/outcomes/batch', { items: [] }).expect(400);
  });

  it('applies reports about one key in the order sent: a checked failure, a failure, a success, a failure', async () => {
    const failure = { outcome: 'failure', toolName: TOOL, context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-502' };
    const checked = { ...failure, classification: 'TECHNICALLY_BROKEN' };
    const success = { outcome: 'success', toolName: TOOL, context: CONTEXT, errorSignatures: ['http-502'] };
    const res = await post(batched, '/v1/outcomes/batch', { items: [checked, failure, success, failure] }).expect(200);
    const [set, held, cleared, again] = res.body.results;
    // The checker's classification sets a cooldown at the caller's project (§7 second row)…
    expect(set.failure).toMatchObject({ spawn: false, cooldown: { scope: 'PROJECT', scopeId: 'p1', errorSignature: 'http-502' } });
    expect(held.failure).toMatchObject({ spawn: false, reason: 'IN_COOLDOWN' }); // …which the next item read
    expect(cleared.success.changed).toEqual([{ scope: 'PROJECT', scopeId: 'p1', status: 'OK' }]); // the success after it cleared it
    expect(again.failure).toMatchObject({ spawn: true, reason: 'ELIGIBLE' }); // and the failure after that found it gone
  });

  it('reads the cascades of all its reports in ONE $in, and writes only what a report changes', async () => {
    const failure = { outcome: 'failure', toolName: TOOL, context: CONTEXT, code: 'BACKEND_FAILED', errorSignature: 'http-502' };
    await post(batched, '/v1/outcomes/batch', { items: [{ ...failure, classification: 'TECHNICALLY_BROKEN' }] }).expect(200);
    // The relay's pass for that write reads the entries too (D27), in a read shared with requests':
    // it is finished before the batch is counted.
    await batched.app.get(EventRelay).drain();
    const items = Array.from({ length: 100 }, (_, i) =>
      i % 20 === 0 ? failure : { outcome: 'success', toolName: `tool-${i}`, context: { ...CONTEXT, sessionId: `s-${i}` } },
    );
    const client = batched.connection.getClient();
    const commands: CommandStartedEvent[] = [];
    const listener = (event: CommandStartedEvent) => {
      if (event.command[event.commandName] === 'tool_health' && !isBackgroundCommand(event)) commands.push(event);
    };
    client.on('commandStarted', listener);
    try {
      const res = await post(batched, '/v1/outcomes/batch', { items }).expect(200);
      expect(res.body.results.filter((r: any) => r.failure?.reason === 'IN_COOLDOWN')).toHaveLength(5);
    } finally {
      client.off('commandStarted', listener);
    }
    // One find of every cascade key of the 100 reports (5 keys each, 5 failures sharing theirs);
    // then the bookkeeping of the 5 hits (flushed per report here: BOOKKEEPING_FLUSH_MS=0).
    const finds = commands.filter((c) => c.commandName === 'find');
    expect(finds).toHaveLength(1);
    expect((finds[0].command.filter as { _id: { $in: string[] } })._id.$in).toHaveLength(95 * 5 + 4);
    expect(commands.filter((c) => c.commandName !== 'find' && c.commandName !== 'update')).toEqual([]);
  });

  it('is a dispatcher route: no key 401, a reader 403, a body without items 400', async () => {
    await batched.http.post('/v1/outcomes/batch').send({ items: [] }).expect(401);
    await post(batched, '/v1/outcomes/batch', { items: [{ outcome: 'success', toolName: TOOL }] }, KEYS.audit).expect(403);
    const res = await post(batched, '/v1/outcomes/batch', { reports: [] }).expect(400);
    expect(res.body.field).toBe('items');
  });
});
