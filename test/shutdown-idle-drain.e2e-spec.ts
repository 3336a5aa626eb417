import { Socket, connect } from 'node:net';
import { TestApp, createTestApp } from './support/test-app';

/**
 * P151: a keep-alive connection that is idle when the shutdown closes the listener may already be
 * carrying its caller's next request. With SHUTDOWN_IDLE_DRAIN_MS that request is answered (with
 * `Connection: close`); with 0 — the close before P151, kept as the contrast — the connection is
 * reaped at once and the request is never answered (the caller sees a reset on a reused
 * connection, as the `npm start` shutdown test saw under load).
 */
jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REQUEST = 'GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Reads whole answers off one raw connection (they are small and carry a content-length). */
class RawConnection {
  private buffer = '';
  closed = false;

  constructor(readonly socket: Socket) {
    socket.setEncoding('utf8').on('data', (chunk: string) => (this.buffer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => (this.closed = true));
  }

  /** The next whole answer (head and body), or null when the connection closed or 3 s passed first. */
  async answer(): Promise<string | null> {
    for (let i = 0; i < 300; i++) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const length = Number(/content-length: *(\d+)/i.exec(this.buffer.slice(0, end))?.[1] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const answer = this.buffer.slice(0, end + 4 + length);
          this.buffer = this.buffer.slice(end + 4 + length);
          return answer;
        }
      }
      if (this.closed) return null;
      await sleep(10);
    }
    return null;
  }
}

describe.each([
  { drainMs: '3000', answered: true },
  { drainMs: '0', answered: false },
])('a request on a connection idle when the shutdown begins, SHUTDOWN_IDLE_DRAIN_MS=$drainMs', ({ drainMs, answered }) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { SHUTDOWN_IDLE_DRAIN_MS: drainMs } });
    await t.app.listen(0, '127.0.0.1');
  });

  it(answered ? 'is read and answered, with Connection: close, and the connection closed after it' : 'is never answered', async () => {
    const server = t.app.getHttpServer();
    const { port } = server.address() as { port: number };
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    const connection = new RawConnection(socket);
    socket.write(REQUEST);
    const first = await connection.answer();
    expect(first?.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(first).toMatch(/connection: keep-alive/i); // answered before the shutdown: the caller may reuse it

    const closing = t.close();
    for (let i = 0; i < 500 && server.listening; i++) await sleep(10);
    expect(server.listening).toBe(false); // the shutdown has reached the listener
    await sleep(100);
    socket.write(REQUEST);
    const second = await connection.answer();
    await closing;
    for (let i = 0; i < 300 && !connection.closed; i++) await sleep(10); // the server's FIN reaches this side
    socket.destroy();

    if (answered) {
      // Whatever the probe says while closing (503: shutting down), the request was read and answered.
      expect(second?.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 (200 OK|503 Service Unavailable)$/);
      expect(second).toMatch(/connection: close/i);
      expect(connection.closed).toBe(true);
    } else {
      expect(second).toBeNull();
    }
  });
});
