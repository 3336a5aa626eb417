import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { WS_MAX_PAYLOAD_BEFORE_KEY } from '../src/graphql/ws-payload-bound';
import { KEYS, TestApp, createTestApp } from './support/test-app';

const PROTOCOL = 'graphql-transport-ws';

/** One raw graphql-ws socket: what it was sent, and how it closed. */
function open(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, PROTOCOL, { headers });
  const messages: any[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    socket.on('close', (code, reason) => done({ code, reason: String(reason) })),
  );
  const opened = new Promise<void>((done, fail) => {
    socket.once('open', () => done());
    socket.once('error', fail);
  });
  const next = async (match: (m: any) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const found = messages.find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no such message; got ${JSON.stringify(messages)}`);
  };
  return { socket, messages, closed, opened, next };
}

/**
 * graphql-ws at the edge (P149): a key on the upgrade request, client mistakes answered as client
 * errors in production, a document over the token bound answered with an error message rather
 * than a 4500 close, and a bound on what is read before the key.
 */
describe('graphql-ws edge (P149)', () => {
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
    await t.app.listen(0, '127.0.0.1');
    url = `ws://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/graphql`;
  });
  afterAll(() => t.close());

  async function connected(headers: Record<string, string> = {}, payload: object = { 'x-api-key': KEYS.audit }) {
    const ws = open(url, headers);
    await ws.opened;
    ws.socket.send(JSON.stringify({ type: 'connection_init', payload }));
    await ws.next((m) => m.type === 'connection_ack');
    return ws;
  }

  it('accepts the key as an x-api-key header on the upgrade request, like the connection_init key', async () => {
    const ws = await connected({ 'x-api-key': KEYS.audit }, {});
    expect(ws.messages[0]).toEqual({ type: 'connection_ack' });
    ws.socket.close();

    const refused = open(url, { 'x-api-key': KEYS.dispatcher });
    await refused.opened;
    refused.socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    expect((await refused.closed).code).toBe(4403);
  });

  it.each([
    [
      'too many aliases',
      `subscription { ${Array.from({ length: 60 }, (_, i) => `a${i}: toolHealthChanged { id }`).join(' ')} }`,
      'GRAPHQL_VALIDATION_FAILED',
    ],
    [
      'too deep',
      'subscription { toolHealthChanged { payload { ... on X { a { b { c { d { e { f { g { h { i { j } } } } } } } } } } } } }',
      'GRAPHQL_VALIDATION_FAILED',
    ],
    [
      'introspection while it is off',
      'subscription { toolHealthChanged { id } } query { __schema { types { name } } }',
      'GRAPHQL_VALIDATION_FAILED',
    ],
    ['an unknown field', 'subscription { noSuchField }', 'GRAPHQL_VALIDATION_FAILED'],
    ['a syntax error', 'subscription {', 'GRAPHQL_PARSE_FAILED'],
    ['20 000 tokens', `subscription { toolHealthChanged { ${'id '.repeat(20_000)} } }`, 'GRAPHQL_PARSE_FAILED'],
  ])('%s: an error message with a client code, not INTERNAL_SERVER_ERROR, and the socket stays open', async (_what, query, code) => {
    const ws = await connected();
    ws.socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
    const error = await ws.next((m) => m.type === 'error' && m.id === '1');
    expect(error.payload.length).toBeGreaterThan(0);
    expect(error.payload.map((e: any) => e.extensions?.code)).toEqual(error.payload.map(() => code));
    // Still open: a second operation is answered on the same socket.
    ws.socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: 'subscription {' } }));
    await ws.next((m) => m.type === 'error' && m.id === '2');
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);
    ws.socket.close();
  });

  it('closes a connection_init larger than the pre-key bound (1009) without reading it whole', async () => {
    const ws = open(url);
    await ws.opened;
    const big = JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(64 * 1024) } });
    ws.socket.send(big);
    const { code } = await ws.closed;
    expect(code).toBe(1009); // RFC 6455: message too big
    expect(ws.messages).toEqual([]);
    expect(WS_MAX_PAYLOAD_BEFORE_KEY).toBeLessThan(big.length);
  });

  it('lifts the bound once the key is accepted: a 100 KiB subscribe message is read and answered', async () => {
    const ws = await connected();
    const padded = `subscription { toolHealthChanged { id } } # ${'x'.repeat(100 * 1024)}`;
    ws.socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: padded } }));
    await new Promise((r) => setTimeout(r, 300));
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);
    ws.socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: 'subscription {' } }));
    await ws.next((m) => m.type === 'error' && m.id === '2');
    ws.socket.close();
  });
});
