import { ArgumentsHost, Logger } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { HttpExceptionFilter } from './http-exception.filter';

/** A host for one HTTP request to `route`, recording what the filter answered. */
function hostFor(route: string) {
  const sent: { status?: number; body?: unknown } = {};
  const reply = {
    status(code: number) {
      sent.status = code;
      return { send: (body: unknown) => (sent.body = body) };
    },
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ routeOptions: { url: route } }) }),
  } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('HttpExceptionFilter', () => {
  const filter = new HttpExceptionFilter();
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('answers a domain error on a REST route with the error body naming its field', () => {
    const { host, sent } = hostFor('/v1/outcomes/failure');
    filter.catch(new DomainError(DomainErrorCode.PAYLOAD_TOO_LARGE, 'body: request body is too large', 'body'), host);
    expect(sent).toEqual({
      status: 413,
      body: { statusCode: 413, error: 'PAYLOAD_TOO_LARGE', message: 'body: request body is too large', field: 'body' },
    });
  });

  it('answers the same error on /mcp as JSON-RPC, with the same HTTP status (P136)', () => {
    const { host, sent } = hostFor('/mcp');
    filter.catch(new DomainError(DomainErrorCode.UNSUPPORTED_MEDIA_TYPE, 'content-type: must be application/json', 'content-type'), host);
    expect(sent).toEqual({
      status: 415,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'content-type: must be application/json',
          data: { code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' },
        },
      },
    });
  });

  it('answers an unexpected failure with 500 and nothing of it: the REST body, or JSON-RPC -32603 on /mcp', () => {
    const rest = hostFor('/v1/entries');
    filter.catch(new Error('secret detail'), rest.host);
    expect(rest.sent).toEqual({ status: 500, body: { statusCode: 500, error: 'INTERNAL', message: 'internal error' } });
    const mcp = hostFor('/mcp');
    filter.catch(new Error('secret detail'), mcp.host);
    expect(mcp.sent).toEqual({ status: 500, body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error' } } });
  });
});
