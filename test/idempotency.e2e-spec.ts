import { DiagnosisService } from '../src/features/diagnoses/diagnosis.service';
import { IDEMPOTENT_OPERATIONS } from '../src/errors/idempotent-operations';
import { EventRelay } from '../src/write-path/event-relay.service';
import { IdempotencyStore } from '../src/idempotency/idempotency.store';
import { FakeClock } from './support/fake-clock';
import { TcpProxy } from './support/tcp-proxy';
import { KEYS, TestApp, createTestApp, isBackgroundCommand, resetDatabase, testDatabaseUri } from './support/test-app';

/**
 * D21 ("Safe retries"): every write route takes an Idempotency-Key. Two instances on one
 * database: a retried write is applied once and answered the same, wherever it lands.
 */
jest.setTimeout(60_000);

const KEY_HEADER = 'Idempotency-Key';
const clock = new FakeClock('2026-05-23T14:00:00.000Z');
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp({ clock, env: { DB_SINGLE_WRITER: 'false' } });
  b = await createTestApp({ clock, env: { DB_SINGLE_WRITER: 'false' } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});
beforeEach(async () => {
  clock.set('2026-05-23T14:00:00.000Z');
  await resetDatabase(a.connection);
});

const KEY = { scope: 'PROJECT', scopeId: 'p-idem', toolName: 'jira' };
const diagnosis = (note = 'backend 502') => ({
  ...KEY,
  classification: 'TECHNICALLY_BROKEN',
  code: 'BACKEND_FAILED',
  note,
  by: 'agrajag-1',
});

const diagnose = (t: TestApp, idempotencyKey: string | undefined, body: object = diagnosis()) => {
  const req = t.http.post('/v1/diagnoses').set('x-api-key', KEYS.writer);
  if (idempotencyKey !== undefined) req.set(KEY_HEADER, idempotencyKey);
  return req.send(body);
};

async function historyOf(t: TestApp): Promise<{ note: string }[]> {
  const res = await t.http
    .get(`/v1/entries?scope=${KEY.scope}&scopeId=${KEY.scopeId}&toolName=${KEY.toolName}`)
    .set('x-api-key', KEYS.dispatcher);
  return res.status === 404 ? [] : res.body.history;
}

/**
 * Holds every call of `object[method]` until `release()`; `reached` settles when the first call
 * arrives. `restore()` lets them all go and puts the method back.
 */
function hold<T extends object>(object: T, method: keyof T & string) {
  const target = object as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method].bind(object);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const spy = jest.spyOn(target, method).mockImplementation(async (...args: unknown[]) => {
    entered();
    await gate;
    return original(...args);
  });
  return {
    reached,
    release,
    restore: () => {
      release();
      spy.mockRestore();
    },
  };
}

/** The events in the log once both instances' relays have moved what the writes left pending. */
async function eventCount(): Promise<number> {
  for (const t of [a, b]) await t.app.get(EventRelay).drain();
  return a.connection.db!.collection('health_events').countDocuments({});
}

/** What a caller compares: status, body and content type. */
const answer = (res: { status: number; body: unknown; headers: Record<string, string> }) => ({
  status: res.status,
  body: res.body,
  type: res.headers['content-type'],
});

describe('Idempotency-Key across two instances on one database (D21)', () => {
  it('the same write retried 3× in a row, alternating instances → one history item, one set of events, identical answers', async () => {
    const first = await diagnose(a, '"seq-1"');
    expect(first.status).toBe(200);
    const events = await eventCount();
    const retries = [await diagnose(b, '"seq-1"'), await diagnose(a, '"seq-1"'), await diagnose(b, '"seq-1"')];
    for (const retry of retries) {
      expect(answer(retry)).toEqual(answer(first));
      expect(retry.headers['idempotent-replayed']).toBe('true');
    }
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await historyOf(a)).toHaveLength(1);
    expect(await eventCount()).toBe(events);
  });

  it('costs four commands on idempotency_keys for a first use, and a replay reads one record and writes nothing else', async () => {
    const commands: string[] = [];
    const listener = (e: { commandName: string; command: { comment?: unknown; [name: string]: unknown } }) => {
      const collection = String(e.command[e.commandName]);
      if (!isBackgroundCommand(e) && ['idempotency_keys', 'tool_health', 'health_events'].includes(collection))
        commands.push(`${e.commandName} ${collection}`);
    };
    const client = a.connection.getClient();
    client.on('commandStarted', listener);
    try {
      expect((await diagnose(a, 'cost-1')).status).toBe(200);
      // The relay's pass for that write reads the entries too (D27), in a read shared with requests':
      // it is finished before the replay is counted.
      for (const t of [a, b]) await t.app.get(EventRelay).drain();
      const first = commands.splice(0).filter((c) => c.endsWith('idempotency_keys'));
      expect(first).toEqual(['find idempotency_keys', 'aggregate idempotency_keys', 'insert idempotency_keys', 'update idempotency_keys']);
      expect((await diagnose(a, 'cost-1')).headers['idempotent-replayed']).toBe('true');
      expect(commands).toEqual(['find idempotency_keys']);
    } finally {
      client.off('commandStarted', listener);
    }
  });

  it('the same write sent 3× at once to both instances → one history item, identical answers', async () => {
    const answers = await Promise.all([diagnose(a, 'conc-1'), diagnose(b, 'conc-1'), diagnose(a, 'conc-1')]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answers.map(answer)).toEqual(answers.map(() => answer(answers[0])));
    expect(answers.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(await historyOf(a)).toHaveLength(1);
  });

  it('without a key the same retries apply three times (the control)', async () => {
    for (const t of [a, b, a]) expect((await diagnose(t, undefined)).status).toBe(200);
    expect(await historyOf(a)).toHaveLength(3);
  });

  it('the same key with another body → 422 naming the header, nothing written', async () => {
    expect((await diagnose(a, 'k-body')).status).toBe(200);
    const other = await diagnose(b, 'k-body', diagnosis('another note'));
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ statusCode: 422, error: 'IDEMPOTENCY_KEY_MISMATCH', field: KEY_HEADER });
    expect(other.body.message).toMatch(/^Idempotency-Key: /);
    expect(await historyOf(a)).toHaveLength(1);
    // The same key on another route is another request too.
    const elsewhere = await a.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.writer)
      .set(KEY_HEADER, 'k-body')
      .send({ ...KEY, classification: 'INTERMITTENT' });
    expect(elsewhere.status).toBe(422);
  });

  it('keys are per API key: another caller with the same key runs its own write', async () => {
    expect((await diagnose(a, 'shared-name')).status).toBe(200);
    const admin = await a.http.post('/v1/diagnoses').set('x-api-key', KEYS.admin).set(KEY_HEADER, 'shared-name').send(diagnosis());
    expect(admin.status).toBe(200);
    expect(admin.headers['idempotent-replayed']).toBeUndefined();
    expect(await historyOf(a)).toHaveLength(2);
  });

  it('a retry while the first request is still running waits, then gets 409 naming the header; once it ends, the first answer', async () => {
    const handler = hold(b.app.get(DiagnosisService), 'recordDiagnosis');
    try {
      const slow = diagnose(b, 'k-slow').then((r) => r);
      await handler.reached;
      const meanwhile = await diagnose(a, 'k-slow');
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.body).toMatchObject({ statusCode: 409, error: 'IDEMPOTENCY_KEY_IN_FLIGHT', field: KEY_HEADER });
      handler.release();
      const first = await slow;
      expect(first.status).toBe(200);
      const after = await diagnose(a, 'k-slow');
      expect(answer(after)).toEqual(answer(first));
    } finally {
      handler.restore();
    }
    expect(await historyOf(a)).toHaveLength(1);
  });

  it('an answer that wrote nothing (a 400) gives the key back: the corrected request runs under the same key', async () => {
    const bad = await diagnose(a, 'k-fix', { ...diagnosis(), classification: 'NOT_A_CLASS' });
    expect(bad.status).toBe(400);
    const fixed = await diagnose(b, 'k-fix');
    expect(fixed.status).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await historyOf(a)).toHaveLength(1);
  });

  it('a corrected request that arrives before the 400 has given the key back waits for it, then runs', async () => {
    // The key is given back as the 400 is sent, so a fast caller can be quicker than the give-back;
    // here the give-back is held until the corrected request has met the key still in flight.
    const giveBack = hold(a.app.get(IdempotencyStore), 'release');
    const second = b.app.get(IdempotencyStore);
    const find = second.find.bind(second);
    let looked!: () => void;
    const lookedUp = new Promise<void>((resolve) => (looked = resolve));
    const seen = jest.spyOn(second, 'find').mockImplementation(async (...args: Parameters<typeof find>) => {
      const record = await find(...args);
      looked();
      return record;
    });
    try {
      const bad = await diagnose(a, 'k-early', { ...diagnosis(), classification: 'NOT_A_CLASS' });
      expect(bad.status).toBe(400);
      const fixed = diagnose(b, 'k-early').then((r) => r);
      await lookedUp; // it has met the key still in flight
      giveBack.release();
      const answered = await fixed;
      expect(answered.status).toBe(200);
      expect(answered.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      giveBack.restore();
      seen.mockRestore();
    }
    expect(await historyOf(a)).toHaveLength(1);
  });

  it('another request under a key whose first request is still running waits, then gets 422 naming the header', async () => {
    const handler = hold(b.app.get(DiagnosisService), 'recordDiagnosis');
    const lookups = jest.spyOn(a.app.get(IdempotencyStore), 'find');
    try {
      const slow = diagnose(b, 'k-other').then((r) => r);
      await handler.reached;
      const other = await diagnose(a, 'k-other', diagnosis('another note'));
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({ statusCode: 422, error: 'IDEMPOTENCY_KEY_MISMATCH', field: KEY_HEADER });
      expect(lookups.mock.calls.length).toBeGreaterThan(1); // it looked again while it waited
      handler.release();
      expect((await slow).status).toBe(200);
    } finally {
      handler.restore();
      lookups.mockRestore();
    }
    expect(await historyOf(a)).toHaveLength(1);
  });

  it('refuses invalid header values with 400 naming the header; the sf-string and the bare token name the same key', async () => {
    for (const value of ['', '   ', '"unterminated', '"a", "b"', 'has space', 'x'.repeat(256), '"caf\u00e9"', '""']) {
      const res = await diagnose(a, value);
      expect({ value, status: res.status, field: res.body.field }).toEqual({ value, status: 400, field: KEY_HEADER });
    }
    expect(await historyOf(a)).toHaveLength(0);
    expect((await diagnose(a, '"same-key"')).status).toBe(200);
    const bare = await diagnose(b, 'same-key');
    expect(bare.headers['idempotent-replayed']).toBe('true');
    expect((await diagnose(a, `"${'y'.repeat(255)}"`)).status).toBe(200);
    expect(await historyOf(a)).toHaveLength(2);
  });

  it('keys expire after 24 h: the same key then runs a new request (record past expiresAt is ignored, TTL index present)', async () => {
    expect((await diagnose(a, 'k-day')).status).toBe(200);
    clock.advance(24 * 3600_000 - 1);
    expect((await diagnose(b, 'k-day', diagnosis('next day'))).status).toBe(422);
    clock.advance(1);
    const later = await diagnose(b, 'k-day', diagnosis('next day'));
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await historyOf(a)).toHaveLength(2);
    const indexes = await a.connection.db!.collection('idempotency_keys').indexes();
    expect(indexes).toEqual(expect.arrayContaining([expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 })]));
  });

  it('a GraphQL mutation with a key is replayed (one effect); a query ignores the header', async () => {
    const mutation = `mutation($input: RecordDiagnosisInput!) { recordDiagnosis(input: $input) { version history { note } } }`;
    const send = (t: TestApp, query: string, variables: object = {}) =>
      t.http.post('/graphql').set('x-api-key', KEYS.admin).set(KEY_HEADER, 'gql-1').send({ query, variables });
    const input = { input: { ...KEY, classification: 'TECHNICALLY_BROKEN', code: 'BACKEND_FAILED', note: 'via graphql', by: 'ops' } };
    const first = await send(a, mutation, input);
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const again = await send(b, mutation, input);
    expect(answer(again)).toEqual(answer(first));
    expect(again.headers['idempotent-replayed']).toBe('true');
    const changed = await send(b, mutation, { input: { ...input.input, note: 'other' } });
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0].extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_MISMATCH', field: KEY_HEADER });
    // A query under the same key is not a write: answered normally, not a 422.
    const query = await send(a, '{ __typename }');
    expect(query.status).toBe(200);
    expect(query.body.data).toEqual({ __typename: 'Query' });
    expect(await historyOf(a)).toHaveLength(1);
  });

  it('an MCP writer tool call with a key is replayed with the retry’s own JSON-RPC id (one effect); readers ignore it', async () => {
    await a.app.listen(0, '127.0.0.1');
    await b.app.listen(0, '127.0.0.1');
    try {
      const call = (t: TestApp, id: number, name: string, args: object) =>
        t.app.getUrl().then((base) =>
          fetch(new URL('/mcp', base), {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2025-06-18',
              'x-api-key': KEYS.writer,
              [KEY_HEADER]: 'mcp-1',
            },
            body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
          }),
        );
      const args = { ...KEY, classification: 'INTERMITTENT', note: 'flaky via mcp' };
      const first = await call(a, 1, 'tool_health_set_unavailable', args);
      const firstBody = (await first.json()) as any;
      expect(first.status).toBe(200);
      expect(firstBody.result.isError).toBeFalsy();
      const again = await call(b, 7, 'tool_health_set_unavailable', args);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual({ ...firstBody, id: 7 });
      const changed = await call(b, 8, 'tool_health_set_unavailable', { ...args, note: 'other' });
      expect(changed.status).toBe(422);
      expect(await changed.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 8,
        error: { data: { code: 'IDEMPOTENCY_KEY_MISMATCH', field: 'Idempotency-Key' } },
      });
      const read = await call(a, 9, 'tool_health_get', KEY);
      expect(read.status).toBe(200);
      expect(((await read.json()) as any).result.isError).toBeFalsy();
      expect(await historyOf(a)).toHaveLength(1);
    } finally {
      // listening apps close with the others in afterAll
    }
  });

  it('documents the header on exactly the write operations of the OpenAPI document, with 422 and 429', async () => {
    const doc = (await a.http.get('/docs/openapi.json')).body;
    const keyed: string[] = [];
    const writes: string[] = [];
    for (const item of Object.values(doc.paths) as Record<string, any>[]) {
      for (const [method, op] of Object.entries(item)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        if (!['annotateManifest', 'annotateManifestChanges', 'explainTool', 'lookupAvailabilityBatch'].includes(op.operationId))
          writes.push(op.operationId);
        if ((op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === KEY_HEADER)) {
          keyed.push(op.operationId);
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422', '429']));
        }
      }
    }
    expect(keyed.sort()).toEqual(writes.sort());
    expect(keyed.sort()).toEqual([...IDEMPOTENT_OPERATIONS].sort());
    expect(doc.components.schemas.ErrorBody.properties.writeMayHaveApplied.type).toBe('boolean');
  });
});

describe('the cap of live keys per API key (P122)', () => {
  let capped: TestApp;
  beforeAll(async () => {
    capped = await createTestApp({ clock, env: { IDEMPOTENCY_KEYS_PER_CALLER: '2' } });
  });
  afterAll(() => capped?.close());

  it('past the cap a new key is a 429 naming the header and writes nothing; known keys still replay; other callers are not affected; expired keys free room', async () => {
    expect((await diagnose(capped, 'cap-1', diagnosis('1'))).status).toBe(200);
    expect((await diagnose(capped, 'cap-2', diagnosis('2'))).status).toBe(200);
    const third = await diagnose(capped, 'cap-3', diagnosis('3'));
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ statusCode: 429, error: 'IDEMPOTENCY_KEY_LIMIT', field: KEY_HEADER });
    expect((await diagnose(capped, 'cap-1', diagnosis('1'))).headers['idempotent-replayed']).toBe('true');
    const other = await capped.http.post('/v1/diagnoses').set('x-api-key', KEYS.admin).set(KEY_HEADER, 'cap-3').send(diagnosis('3'));
    expect(other.status).toBe(200);
    expect((await diagnose(capped, undefined, diagnosis('no key'))).status).toBe(200);
    expect(await historyOf(capped)).toHaveLength(4);
    clock.advance(24 * 3600_000);
    expect((await diagnose(capped, 'cap-3', diagnosis('3'))).status).toBe(200);
  });
});

/**
 * P123 (a 503 for a write that happened): a write the database keeps waiting is answered 503 at the request
 * deadline while it runs on. The database is behind a TCP proxy that turns into a black hole
 * once the handler has started (the key is claimed by then), and heals after the 503.
 */
describe('a write answered 503 at its deadline (P123)', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  const deadlineClock = new FakeClock('2026-05-23T14:00:00.000Z');

  beforeAll(async () => {
    const uri = testDatabaseUri();
    const target = new URL(uri);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port) });
    t = await createTestApp({ clock: deadlineClock, env: { MONGODB_URI: proxy.rewrite(uri), REQUEST_DEADLINE_MS: '300' } });
  });
  afterAll(async () => {
    proxy?.heal();
    await t?.close();
    await proxy?.stop();
  });
  beforeEach(() => resetDatabase(t.connection));

  /** Sends the diagnosis; once its handler runs, black-holes the database until the 503 is out, then heals it. */
  async function diagnoseThroughOutage(idempotencyKey: string | undefined) {
    const service = t.app.get(DiagnosisService);
    const original = service.recordDiagnosis.bind(service);
    const spy = jest.spyOn(service, 'recordDiagnosis').mockImplementationOnce(async (...args: Parameters<typeof original>) => {
      proxy.blackHole(); // the claim is stored; the write's own commands now wait
      return original(...args);
    });
    try {
      const res = await diagnose(t, idempotencyKey);
      proxy.heal();
      return res;
    } finally {
      spy.mockRestore();
      proxy.heal();
    }
  }

  it('with a key: the 503 says the write may still apply; a retry gets its real answer once it ends, and it is applied once', async () => {
    const first = await diagnoseThroughOutage('deadline-1');
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ statusCode: 503, error: 'UNAVAILABLE', writeMayHaveApplied: true });
    expect(first.body.message).toMatch(/retry with the same Idempotency-Key/);
    // The abandoned write completes once the database answers; the retry waits for it or replays it.
    let retry = await diagnose(t, 'deadline-1');
    for (let i = 0; i < 20 && retry.status === 409; i++) retry = await diagnose(t, 'deadline-1');
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const history = await historyOf(t);
    expect(history).toHaveLength(1);
    expect(retry.body.history).toEqual(history);
    expect((await diagnose(t, 'deadline-1')).body).toEqual(retry.body);
    expect(await historyOf(t)).toHaveLength(1);
  });

  it('a keyed write while the database is silent answers 503 at about the deadline, saying nothing ran (P41 holds for the hook’s own reads)', async () => {
    proxy.blackHole();
    const startedAt = Date.now();
    let res;
    try {
      res = await diagnose(t, 'silent-1');
    } finally {
      proxy.heal();
    }
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'UNAVAILABLE', writeMayHaveApplied: false });
    // Far below the 10 s socket timeout the hook's query would otherwise wait out.
    expect(Date.now() - startedAt).toBeLessThan(5000);
    const later = await diagnose(t, 'silent-1');
    expect(later.status).toBe(200);
    expect(await historyOf(t)).toHaveLength(1);
  });

  it('a GraphQL mutation with a key: the deadline error says the write may still apply; a retry is told it was applied, never runs it again', async () => {
    const service = t.app.get(DiagnosisService);
    const original = service.recordDiagnosis.bind(service);
    const spy = jest.spyOn(service, 'recordDiagnosis').mockImplementationOnce(async (...args: Parameters<typeof original>) => {
      proxy.blackHole();
      return original(...args);
    });
    const mutation = `mutation($input: RecordDiagnosisInput!) { recordDiagnosis(input: $input) { version } }`;
    const variables = { input: { ...KEY, classification: 'TECHNICALLY_BROKEN', code: 'BACKEND_FAILED', note: 'gql deadline', by: 'ops' } };
    const send = () =>
      t.http.post('/graphql').set('x-api-key', KEYS.admin).set(KEY_HEADER, 'gql-deadline').send({ query: mutation, variables });
    let first;
    try {
      first = await send();
    } finally {
      spy.mockRestore();
      proxy.heal();
    }
    expect(first.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', writeMayHaveApplied: true });
    let retry = await send();
    for (let i = 0; i < 20 && retry.status === 409; i++) retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual({
      data: null,
      errors: [{ message: expect.stringMatching(/applied after/), extensions: { code: 'APPLIED_AFTER_DEADLINE' } }],
    });
    expect(await historyOf(t)).toHaveLength(1);
  });

  it('without a key: the 503 says the write may have been applied and to retry with a key — and it was applied', async () => {
    const first = await diagnoseThroughOutage(undefined);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ statusCode: 503, error: 'UNAVAILABLE', writeMayHaveApplied: true });
    expect(first.body.message).toMatch(/Idempotency-Key/);
    let history = await historyOf(t);
    for (let i = 0; i < 50 && history.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      history = await historyOf(t);
    }
    expect(history).toHaveLength(1);
  });
});
