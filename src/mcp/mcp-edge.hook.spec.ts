import { hostRefusal } from './mcp-edge.hook';

describe('hostRefusal (P136)', () => {
  const allowed = ['localhost', '127.0.0.1', '[::1]', 'svc.internal'];

  it.each([['localhost:3000'], ['127.0.0.1'], ['[::1]:8080'], ['SVC.internal:443']])('allows Host %s without an Origin', (host) => {
    expect(hostRefusal({ host }, allowed)).toBeNull();
  });

  it('allows an Origin of an allowed host on any port or scheme', () => {
    expect(hostRefusal({ host: 'localhost:3000', origin: 'http://localhost:5173' }, allowed)).toBeNull();
    expect(hostRefusal({ host: 'svc.internal', origin: 'https://svc.internal' }, allowed)).toBeNull();
  });

  it.each([
    [{ host: 'evil.example' }, /^Host "evil\.example"/],
    [{ host: 'localhost.evil.example:3000' }, /^Host/],
    [{ host: 'localhost@evil.example' }, /^Host/],
    [{ host: 'localhost/x' }, /^Host/],
    [{}, /^Host ""/],
    [{ host: 'localhost', origin: 'http://evil.example' }, /^Origin "http:\/\/evil\.example"/],
    [{ host: 'localhost', origin: 'null' }, /^Origin "null"/],
  ])('refuses %j', (headers, message) => {
    expect(hostRefusal(headers, allowed)).toMatch(message);
  });

  it('allows anything with "*"', () => {
    expect(hostRefusal({ host: 'evil.example', origin: 'http://evil.example' }, ['*'])).toBeNull();
  });
});
