import { AddressInfo, connect } from 'node:net';
import { KEYS, TestApp, createTestApp, resetDatabase } from './support/test-app';

/**
 * Issue 12, bodies (P63): 413 for too large, 415 for anything but UTF-8 JSON, duplicate and
 * prototype keys refused naming them, deep nesting a 400 (never 500), every refusal with `field`.
 * Bodies are sent as raw strings (supertest would re-serialise objects and hide duplicates).
 */
describe('request bodies (P63)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.connection));

  const COOLDOWN = {
    scope: 'USER',
    scopeId: 'alice',
    toolName: 'jira',
    errorSignature: 'http-403',
    classification: 'USER_PERMISSION',
    userId: 'alice',
  };
  /** A class-validator route (the global ValidationPipe) and a compiled-schema route (@SchemaBody). */
  const ROUTES = ['/v1/cooldowns', '/v1/outcomes/failure'] as const;

  const send = (path: string, body: string, type: string | undefined = 'application/json') => {
    const req = t.http.post(path).set('x-api-key', KEYS.admin);
    if (type !== undefined) req.set('content-type', type);
    return req.send(body);
  };
  const cooldownCount = () => t.connection.db!.collection('cooldowns').countDocuments();

  it('accepts the plain body (the baseline the refusals below differ from)', async () => {
    await send('/v1/cooldowns', JSON.stringify(COOLDOWN)).expect(200);
    await send('/v1/cooldowns', JSON.stringify(COOLDOWN), 'application/json; charset=utf-8').expect(200);
  });

  it('JSON nested ~5 000 deep is a 400 naming the field, on both kinds of route, never a 500', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const path of ROUTES) {
      const res = await send(path, `{"toolName":"jira","context":${deep}}`);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body).toMatchObject({ error: 'INVALID_ARGUMENT', field: expect.stringMatching(/^context(\[0\])+$/) });
      expect(res.body.message).toMatch(/nested deeper than 32 levels/);
    }
    const whole = await send('/v1/cooldowns', deep);
    expect(whole.status).toBe(400);
  });

  it('a body over the limit is a 413 naming `body`', async () => {
    const big = JSON.stringify({ ...COOLDOWN, note: 'x'.repeat(5 * 1024 * 1024) });
    const res = await send('/v1/cooldowns', big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'PAYLOAD_TOO_LARGE', field: 'body' });
  });

  it('form-urlencoded, text/plain, multipart, no content type: 415 naming `content-type`, nothing written', async () => {
    const cases: [string | undefined, string][] = [
      ['application/x-www-form-urlencoded', new URLSearchParams(COOLDOWN).toString()],
      ['text/plain', JSON.stringify(COOLDOWN)],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="scope"\r\n\r\nUSER\r\n--x--\r\n'],
      ['application/xml', '<cooldown/>'],
    ];
    for (const [type, body] of cases) {
      const res = await send('/v1/cooldowns', body, type);
      expect([type, res.status]).toEqual([type, 415]);
      expect(res.body).toMatchObject({ statusCode: 415, error: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' });
    }
    expect(await cooldownCount()).toBe(0);
  });

  it('a body without any content type is a 415 (raw bytes: supertest always adds one)', async () => {
    await t.app.listen(0, '127.0.0.1');
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const body = JSON.stringify(COOLDOWN);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => {
        out += d;
        if (/\r\n\r\n[\s\S]*\}$/.test(out)) socket.end();
      });
      socket.on('close', () => resolve(out));
      socket.on('error', reject);
      socket.write(
        `POST /v1/cooldowns HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.admin}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    expect(text).toMatch(/^HTTP\/1\.1 415 /);
    expect(text).toContain('"field":"content-type"');
  });

  it('a charset other than UTF-8 is a 415 naming `content-type`', async () => {
    const utf16 = Buffer.from(`\ufeff${JSON.stringify(COOLDOWN)}`, 'utf16le');
    const res = await t.http
      .post('/v1/cooldowns')
      .set('x-api-key', KEYS.admin)
      .set('content-type', 'application/json; charset=utf-16')
      .send(utf16);
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type', message: expect.stringMatching(/utf-16/i) });
    expect(await cooldownCount()).toBe(0);
  });

  it('a duplicate key is a 400 naming it, and nothing is written (it used to write the last one)', async () => {
    for (const path of ROUTES) {
      const res = await send(path, '{"scope":"GLOBAL","toolName":"jira","code":"BACKEND_FAILED","errorSignature":"e","scope":"USER"}');
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body).toMatchObject({ error: 'INVALID_ARGUMENT', field: 'scope', message: 'scope: duplicate key' });
    }
    const nested = await send(
      '/v1/outcomes/failure',
      '{"toolName":"jira","code":"BACKEND_FAILED","errorSignature":"e","context":{"userId":"a","userId":"b"}}',
    );
    expect(nested.body).toMatchObject({ field: 'context.userId' });
    expect(await cooldownCount()).toBe(0);
  });

  it('__proto__ and constructor keys are a 400 naming the field, not "not valid JSON" nor dropped silently', async () => {
    const proto = await send('/v1/cooldowns', JSON.stringify(COOLDOWN).replace('{', '{"__proto__":{"admin":true},'));
    expect(proto.status).toBe(400);
    expect(proto.body).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: '__proto__',
      message: '__proto__: the key "__proto__" is not accepted',
    });
    const ctor = await send('/v1/cooldowns', JSON.stringify({ ...COOLDOWN, constructor: 'x' }));
    expect(ctor.status).toBe(400);
    expect(ctor.body).toMatchObject({ field: 'constructor' });
    const nested = await send(
      '/v1/outcomes/failure',
      '{"toolName":"jira","code":"BACKEND_FAILED","errorSignature":"e","context":{"constructor":{"prototype":{}}}}',
    );
    expect(nested.body).toMatchObject({ field: 'context.constructor' });
    expect(await cooldownCount()).toBe(0);
  });

  it('malformed and empty JSON are a 400 naming `body`', async () => {
    for (const body of ['{"scope":', '', 'nope', '{"a":1}}']) {
      const res = await send('/v1/cooldowns', body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.body).toMatchObject({ error: 'INVALID_ARGUMENT', field: 'body' });
    }
  });

  it('GraphQL bodies go through the same parser (duplicate key → 400, form body → 415)', async () => {
    const dup = await send('/graphql', '{"query":"{ __typename }","query":"mutation { purgeToolHealth }"}');
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ field: 'query', message: 'query: duplicate key' });
    const form = await send('/graphql', 'query=%7B__typename%7D', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
  });
});
