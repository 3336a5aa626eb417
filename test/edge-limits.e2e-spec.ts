import { hostname } from 'node:os';
import { AddressInfo, connect } from 'node:net';
import { DatabaseLiveness } from '../src/database/database-liveness';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';
import { rawRequest } from './support/raw-http';

/**
 * The key is checked before any body byte is read (P135), bodies are
 * strict UTF-8 (P137), and the open readiness probe names no host or process (P139). Bounds, not
 * timings: the 401 arrives while most of the body is still unsent, and the JSON parser never ran.
 */
const BODY_BYTES = Math.round(3.7 * 1024 * 1024);
const FIRST_SLICE = 64 * 1024;
/** In every body sent here, so the parser's work on it can be recognised. */
const MARKER = 'body-marker-7f3a';
/** Only keeps a broken server from hanging the test; the assertion is what was sent before the answer. */
const GIVE_UP_MS = 10_000;

interface EarlyAnswer {
  /** The raw answer (status line, headers, body), or '' if none came before giving up. */
  text: string;
  /** Body bytes the client had written when the first answer byte arrived. */
  sentBeforeAnswer: number;
}

describe('resource limits and strict input (P135, P137, P139)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));
  afterEach(() => jest.restoreAllMocks());

  /**
   * Sends the headers of a 3.7 MiB JSON body and its first 64 KiB, then waits for an answer before
   * sending anything more. A server that reads the body first cannot answer here.
   */
  function sendHeadAndFirstSlice(path: string, headers: Record<string, string>): Promise<EarlyAnswer> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      let sent = 0;
      const done = () => {
        clearTimeout(timer);
        socket.destroy();
        resolve({ text, sentBeforeAnswer: sent });
      };
      const timer = setTimeout(done, GIVE_UP_MS);
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (/\r\n\r\n[\s\S]*\}$/.test(text)) done(); // status, headers and the whole (small) JSON body
      });
      socket.on('connect', () => {
        const head = [
          `POST ${path} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Content-Type: application/json',
          `Content-Length: ${BODY_BYTES}`,
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
          '',
          '',
        ].join('\r\n');
        socket.write(head);
        const slice = Buffer.from(`{"toolName":"jira","note":"${MARKER}${'x'.repeat(FIRST_SLICE - 27 - MARKER.length)}`);
        socket.write(slice, () => (sent += slice.length));
      });
    });
  }

  /** How many JSON.parse calls saw text carrying MARKER (the body parser's JSON.parse, P63). */
  const parsed = () => {
    const parse = jest.spyOn(JSON, 'parse');
    return () => parse.mock.calls.filter(([text]) => typeof text === 'string' && text.includes(MARKER)).length;
  };

  it.each([
    ['no key', {}, 'an API key is required (header x-api-key)'],
    ['an unknown key', { 'x-api-key': 'not-a-key' }, 'unknown API key (header x-api-key)'],
  ])('REST: a 3.7 MiB body with %s is answered 401 before the client has sent it, unparsed', async (_case, headers, message) => {
    const calls = parsed();
    const answer = await sendHeadAndFirstSlice('/v1/agrajag/tools/tool_health_set_unavailable/invoke', headers);
    expect(answer.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.sentBeforeAnswer).toBeLessThanOrEqual(FIRST_SLICE);
    expect(answer.sentBeforeAnswer).toBeLessThan(BODY_BYTES / 50);
    // The same body as the guard's 401 always had (ErrorBody, D17).
    expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 401,
      error: 'UNAUTHENTICATED',
      message,
    });
    expect(calls()).toBe(0);
  });

  it('MCP: a 3.7 MiB body without a key is answered 401 (JSON-RPC) before the client has sent it, unparsed', async () => {
    const calls = parsed();
    const answer = await sendHeadAndFirstSlice('/mcp', { Accept: 'application/json, text/event-stream' });
    expect(answer.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.text).toMatch(/\r\nwww-authenticate: ApiKey /i);
    expect(answer.sentBeforeAnswer).toBeLessThanOrEqual(FIRST_SLICE);
    expect(answer.text).toContain('{"jsonrpc":"2.0","error":{"code":-32001,"message":"an API key is required (header x-api-key)"');
    expect(calls()).toBe(0);
  });

  it('the same route with a known key reads and parses its body (the spies see parsing when it happens)', async () => {
    const calls = parsed();
    await t.http
      .post('/v1/agrajag/tools/tool_health_get/invoke')
      .set('x-api-key', KEYS.writer)
      .send({ arguments: { toolName: 'jira', scope: 'GLOBAL' }, by: MARKER });
    expect(calls()).toBe(1);
  });

  it('a body without a key to the open probes or an unknown route is not a 401', async () => {
    const probe = await rawRequest(new URL(`http://127.0.0.1:${port}/health/live`), {
      method: 'GET',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(probe.status).toBe(200);
    const unknown = await rawRequest(new URL(`http://127.0.0.1:${port}/v1/nothing-here`), {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(unknown.status).toBe(404);
  });

  describe('strict UTF-8 (P137)', () => {
    const invoke = (body: Buffer) =>
      rawRequest(new URL(`http://127.0.0.1:${port}/v1/agrajag/tools/tool_health_set_unavailable/invoke`), {
        body,
        headers: { 'content-type': 'application/json', 'x-api-key': KEYS.writer },
      });
    const verdict = (note: Buffer) =>
      Buffer.concat([
        Buffer.from('{"by":"agrajag-1","arguments":{"toolName":"jira","scope":"GLOBAL","classification":"TECHNICALLY_BROKEN","note":"'),
        note,
        Buffer.from('"}}'),
      ]);
    const stored = () => t.connection.db!.collection('tool_health').countDocuments();

    it('accepts a note in well-formed UTF-8 and reads it back unchanged', async () => {
      const res = await invoke(verdict(Buffer.from('Zürich € 𝄞 \\ud834\\udd1e')));
      expect(res.status).toBe(200);
      const entry = await t.http.get('/v1/entries').query({ scope: 'GLOBAL', toolName: 'jira' }).set('x-api-key', KEYS.audit).expect(200);
      expect(entry.body.lastDiagnosis.note).toBe('Zürich € 𝄞 𝄞');
    });

    it.each([
      ['Latin-1 bytes', Buffer.from([0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68])], // "Zürich" in ISO-8859-1
      ['a UTF-8-encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
      ['a truncated sequence', Buffer.from([0xe2, 0x82])],
    ])('refuses %s with a 400 naming body, storing nothing (it was stored as U+FFFD)', async (_case, note) => {
      const res = await invoke(verdict(note));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        error: 'INVALID_ARGUMENT',
        field: 'body',
        message: expect.stringMatching(/^body: not valid UTF-8 \(byte \d+\)/),
      });
      expect(await stored()).toBe(0);
    });

    it('refuses an escaped lone surrogate with a 400 naming the field, storing nothing', async () => {
      const res = await invoke(verdict(Buffer.from('broken \\ud800 here')));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        error: 'INVALID_ARGUMENT',
        field: 'arguments.note',
        message: expect.stringMatching(/lone UTF-16 surrogate/),
      });
      expect(await stored()).toBe(0);
    });
  });

  it('/health/ready without a key names no host or process, up or down (P139)', async () => {
    const up = await t.http.get('/health/ready').expect(200);
    jest.spyOn(t.app.get(DatabaseLiveness), 'up', 'get').mockReturnValue(false);
    const down = await t.http.get('/health/ready').expect(503);
    for (const res of [up, down]) {
      expect(res.text).not.toContain(hostname());
      expect(res.text).not.toContain(String(process.pid));
    }
    expect(down.body).toMatchObject({ database: 'down' });
  });
});
