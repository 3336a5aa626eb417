import { connect } from 'node:net';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * P127: a client that trickles a request body is answered 408 and closed once
 * HTTP_REQUEST_TIMEOUT_MS has passed, long before it would have finished its body. Without the
 * timeout (Fastify's requestTimeout 0) nothing ever closed it, and at shutdown it held the close.
 */
jest.setTimeout(60_000);

const BODY_LENGTH = 60; // at one byte per 100 ms: 6 s for the whole body
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a trickled request body (P127)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { HTTP_REQUEST_TIMEOUT_MS: '1000' } });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is answered 408 and closed before the body is complete', async () => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    let closed = false;
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/outcomes/failure HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.dispatcher}\r\n` +
        `content-type: application/json\r\ncontent-length: ${BODY_LENGTH}\r\n\r\n`,
    );
    let sent = 0;
    while (!closed && sent < BODY_LENGTH) {
      socket.write(sent === 0 ? '{' : ' ');
      sent++;
      await sleep(100);
    }
    for (let i = 0; i < 50 && !closed; i++) await sleep(100); // a body sent whole gets its answer
    socket.destroy();
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(BODY_LENGTH);
  });
});
