import { hashApiKey } from '../config/api-keys';
import { ApiKeyService } from '../auth/api-key.service';
import { Role } from '../domain/role';
import type { AppConfig } from '../config/app-config';
import { MAX_CLOSE_REASON_BYTES, WS_CLOSE_FORBIDDEN, WS_CLOSE_UNAUTHORIZED, graphqlWsOptions, wsCloseReason } from './graphql-ws.options';

describe('graphql-ws connection_init refusals (D17, P100)', () => {
  const keys = new ApiKeyService({
    apiKeys: [
      { name: 'ops', roles: [Role.AUDIT_READER], sha256: hashApiKey('reader-key') },
      { name: 'dispatch-eu', roles: [Role.DISPATCHER], sha256: hashApiKey('dispatcher-key') },
      { name: 'x'.repeat(200), roles: [Role.TOOL_HEALTH_WRITER], sha256: hashApiKey('long-name-key') },
    ],
  } as unknown as AppConfig);
  const onConnect = graphqlWsOptions(keys, (f) => f).onConnect as (ctx: unknown) => boolean;

  function connect(params: Record<string, unknown> | undefined): { accepted: boolean; close: jest.Mock } {
    const close = jest.fn();
    const accepted = onConnect({ connectionParams: params, extra: { socket: { close }, request: {} } });
    return { accepted, close };
  }

  it('closes 4401 naming the header for no key and for an unknown key', () => {
    for (const params of [undefined, {}, { 'x-api-key': '' }, { 'X-API-Key': 'nope' }]) {
      const { accepted, close } = connect(params);
      expect(accepted).toBe(false);
      expect(close).toHaveBeenCalledTimes(1);
      const [code, reason] = close.mock.calls[0] as [number, string];
      expect(code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect(reason).toMatch(/^Unauthorized: .*\{"x-api-key": "<key>"\} in connection_init$/);
    }
    expect(connect({ 'x-api-key': 'nope' }).close.mock.calls[0][1]).toContain('unknown API key');
  });

  it('closes 4403 naming the key and the roles that may subscribe', () => {
    const { accepted, close } = connect({ 'x-api-key': 'dispatcher-key' });
    expect(accepted).toBe(false);
    expect(close.mock.calls).toEqual([
      [WS_CLOSE_FORBIDDEN, 'Forbidden: key "dispatch-eu" may not subscribe (needs one of: admin, audit-reader)'],
    ]);
  });

  it('leaves the key name out when the reason would not fit a close frame', () => {
    const { close } = connect({ 'x-api-key': 'long-name-key' });
    expect(close.mock.calls).toEqual([[WS_CLOSE_FORBIDDEN, 'Forbidden: subscribing needs one of: admin, audit-reader']]);
  });

  it('keeps every reason within the 123 bytes of a close frame', () => {
    const details = [undefined, 'an API key is required (header x-api-key)', 'é'.repeat(100)];
    for (const code of [WS_CLOSE_UNAUTHORIZED, WS_CLOSE_FORBIDDEN] as const)
      for (const detail of details) expect(Buffer.byteLength(wsCloseReason(code, detail))).toBeLessThanOrEqual(MAX_CLOSE_REASON_BYTES);
  });

  it('accepts a reader key and keeps its principal for the operations', () => {
    const close = jest.fn();
    const extra: { socket: { close: jest.Mock }; principal?: unknown } = { socket: { close } };
    expect(onConnect({ connectionParams: { 'x-api-key': 'reader-key' }, extra })).toBe(true);
    expect(close).not.toHaveBeenCalled();
    expect(extra.principal).toEqual({ name: 'ops', roles: [Role.AUDIT_READER] });
  });
});
