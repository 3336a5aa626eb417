import { refuseMessage } from './mcp-message-check';

describe('refuseMessage (P136)', () => {
  const call = (params: unknown, id: unknown = 3) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

  it('lets well-formed requests, notifications and responses through to the SDK', () => {
    expect(refuseMessage(call({ name: 'tool_health_get', arguments: { toolName: 'x' } }))).toBeNull();
    expect(refuseMessage(call({ name: 'tool_health_get' }))).toBeNull();
    expect(refuseMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeNull();
    expect(refuseMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeNull();
    expect(refuseMessage({ jsonrpc: '2.0', id: 1, result: {} })).toBeNull();
  });

  it('refuses any batch whole, with no id, before any of it runs', () => {
    expect(refuseMessage([call({ name: 'a' }, 1)])).toMatchObject({ status: 400, body: { id: null, error: { code: -32600 } } });
    expect(refuseMessage([])).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
  });

  it('refuses a body that is no object as an invalid request', () => {
    expect(refuseMessage('tools/list')).toMatchObject({
      status: 400,
      body: { error: { code: -32600, message: expect.stringContaining('a string') } },
    });
  });

  it.each([
    [{ name: 1 }, 'params.name is a number'],
    [{ name: '' }, 'params.name is empty'],
    [{ name: null }, 'params.name is null'],
    [{ name: 'x', arguments: null }, 'params.arguments is null'],
    [{ name: 'x', arguments: [] }, 'params.arguments is an array'],
    ['x', 'params is a string'],
  ])('answers tools/call with params %j as -32602 with the request id and a sentence', (params, start) => {
    const refusal = refuseMessage(call(params));
    expect(refusal).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 3, error: { code: -32602 } } });
    expect(refusal!.body.error.message).toMatch(new RegExp(`^Invalid params: ${start.replace(/[.[\]]/g, '\\$&')}; send `));
  });
});
