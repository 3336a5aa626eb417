import { answerWrote, replayBody } from './captured-answer';
import { fingerprintBody, writeSurfaceOf, WriteSurface } from './write-requests';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const answer = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body: b64(body) });

describe('which requests an Idempotency-Key applies to (D21)', () => {
  it('every REST write route, not the read POSTs, not GET, not an unmatched route', () => {
    expect(writeSurfaceOf({ method: 'POST', route: '/v1/diagnoses', body: {} })).toBe(WriteSurface.REST);
    expect(writeSurfaceOf({ method: 'PUT', route: '/v1/tenants/:tenantId/settings/history-limit', body: {} })).toBe(WriteSurface.REST);
    expect(writeSurfaceOf({ method: 'PATCH', route: '/v1/maintenance-windows/:id', body: {} })).toBe(WriteSurface.REST);
    expect(writeSurfaceOf({ method: 'DELETE', route: '/v1/maintenance-windows/:id', body: undefined })).toBe(WriteSurface.REST);
    for (const route of ['/v1/availability/lookup', '/v1/manifest/annotate', '/v1/manifest/annotate/changes', '/v1/manifest/explain'])
      expect(writeSurfaceOf({ method: 'POST', route, body: {} })).toBeNull();
    expect(writeSurfaceOf({ method: 'GET', route: '/v1/entries', body: undefined })).toBeNull();
    expect(writeSurfaceOf({ method: 'POST', route: undefined, body: {} })).toBeNull();
  });

  it('a GraphQL request whose chosen operation is a mutation; queries, subscriptions and unparsable documents are not', () => {
    const gql = (query: unknown, operationName?: string) =>
      writeSurfaceOf({ method: 'POST', route: '/graphql', body: { query, operationName } });
    expect(gql('mutation { sweepCooldowns { removed } }')).toBe(WriteSurface.GRAPHQL);
    expect(gql('{ __typename }')).toBeNull();
    expect(gql('subscription { healthEvents { type } }')).toBeNull();
    expect(gql('mutation {')).toBeNull();
    expect(gql(42)).toBeNull();
    const two = 'query Q { __typename } mutation M { sweepCooldowns { removed } }';
    expect(gql(two, 'M')).toBe(WriteSurface.GRAPHQL);
    expect(gql(two, 'Q')).toBeNull();
    expect(gql(two)).toBeNull(); // ambiguous: Apollo refuses it, nothing runs
  });

  it('an MCP tools/call of a writer tool; readers, tools/list and unknown tools are not', () => {
    const mcp = (body: unknown) => writeSurfaceOf({ method: 'POST', route: '/mcp', body });
    const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });
    expect(mcp(call('tool_health_set_unavailable'))).toBe(WriteSurface.MCP);
    expect(mcp(call('tool_health_clear'))).toBe(WriteSurface.MCP);
    expect(mcp(call('tool_health_get'))).toBeNull();
    expect(mcp(call('no_such_tool'))).toBeNull();
    expect(mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeNull();
  });

  it('leaves the JSON-RPC id out of an MCP fingerprint, nothing else', () => {
    expect(fingerprintBody(WriteSurface.MCP, { jsonrpc: '2.0', id: 9, method: 'tools/call' })).toEqual({
      jsonrpc: '2.0',
      method: 'tools/call',
    });
    expect(fingerprintBody(WriteSurface.REST, { id: 9 })).toEqual({ id: 9 });
    expect(fingerprintBody(WriteSurface.REST, undefined)).toBeNull();
  });
});

describe('which answers are kept (P122)', () => {
  it('REST: a 2xx only', () => {
    expect(answerWrote(WriteSurface.REST, answer(200, {}))).toBe(true);
    expect(answerWrote(WriteSurface.REST, answer(201, {}))).toBe(true);
    for (const status of [400, 404, 409, 422, 500, 503]) expect(answerWrote(WriteSurface.REST, answer(status, {}))).toBe(false);
  });

  it('GraphQL: a result for at least one mutation field, partial results included', () => {
    expect(answerWrote(WriteSurface.GRAPHQL, answer(200, { data: { a: { v: 1 } } }))).toBe(true);
    expect(answerWrote(WriteSurface.GRAPHQL, answer(200, { data: { a: { v: 1 }, b: null }, errors: [{}] }))).toBe(true);
    expect(answerWrote(WriteSurface.GRAPHQL, answer(200, { data: { a: null }, errors: [{}] }))).toBe(false);
    expect(answerWrote(WriteSurface.GRAPHQL, answer(200, { data: null, errors: [{}] }))).toBe(false);
    expect(answerWrote(WriteSurface.GRAPHQL, answer(400, { errors: [{}] }))).toBe(false);
  });

  it('MCP: a result that is not isError', () => {
    expect(answerWrote(WriteSurface.MCP, answer(200, { jsonrpc: '2.0', id: 1, result: { content: [] } }))).toBe(true);
    expect(answerWrote(WriteSurface.MCP, answer(200, { jsonrpc: '2.0', id: 1, result: { isError: true } }))).toBe(false);
    expect(answerWrote(WriteSurface.MCP, answer(200, { jsonrpc: '2.0', id: 1, error: { code: -32602 } }))).toBe(false);
  });

  it('replays MCP with the retry’s id and everything else byte for byte', () => {
    const stored = answer(200, { result: { ok: 1 }, jsonrpc: '2.0', id: 1 });
    expect(JSON.parse(replayBody(WriteSurface.MCP, stored, { id: 'r-2' }).toString())).toEqual({
      result: { ok: 1 },
      jsonrpc: '2.0',
      id: 'r-2',
    });
    expect(replayBody(WriteSurface.REST, stored, { id: 5 }).toString('base64')).toBe(stored.body);
  });
});
