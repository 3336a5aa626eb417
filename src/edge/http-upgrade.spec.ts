import { Socket } from 'node:net';
import { WebSocketOnlyUpgradeMessage, asksForWebSocket } from './http-upgrade';

describe('P60 upgrade filter', () => {
  it('asksForWebSocket: only the websocket token, in any case', () => {
    expect(asksForWebSocket({ upgrade: 'websocket' })).toBe(true);
    expect(asksForWebSocket({ upgrade: 'WebSocket' })).toBe(true);
    expect(asksForWebSocket({ upgrade: 'h2c' })).toBe(false);
    expect(asksForWebSocket({ upgrade: 'foo/1, websocket' })).toBe(true);
    expect(asksForWebSocket({})).toBe(false);
  });

  it('the message reports an upgrade only when the parser saw one and it is a WebSocket handshake', () => {
    const message = (upgrade: string | undefined, parsed: boolean) => {
      const m = new WebSocketOnlyUpgradeMessage(new Socket());
      if (upgrade) m.headers = { upgrade, connection: 'Upgrade' };
      m.upgrade = parsed; // as the HTTP parser assigns it
      return m.upgrade;
    };
    expect(message('websocket', true)).toBe(true);
    expect(message('h2c', true)).toBe(false);
    expect(message('websocket', false)).toBe(false);
    expect(message(undefined, false)).toBe(false);
  });
});
