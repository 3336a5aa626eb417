import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { withinDeadline } from './mcp-deadline';

describe('withinDeadline (P136, P41)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  const never = () => new Promise<string>(() => undefined);
  const outcome = <T>(promise: Promise<T>) => {
    const seen: { value?: T; error?: unknown } = {};
    promise.then(
      (value) => (seen.value = value),
      (error: unknown) => (seen.error = error),
    );
    return seen;
  };

  it('passes a result or an error through before the deadline', async () => {
    await expect(withinDeadline(Promise.resolve('ok'), Date.now(), 700, { upSince: () => false })).resolves.toBe('ok');
    await expect(withinDeadline(Promise.reject(new Error('boom')), Date.now(), 700, { upSince: () => false })).rejects.toThrow('boom');
  });

  it('fails with UNAVAILABLE at the deadline when the database has not answered all along', async () => {
    const seen = outcome(withinDeadline(never(), Date.now(), 700, { upSince: () => false }));
    await jest.advanceTimersByTimeAsync(699);
    expect(seen).toEqual({});
    await jest.advanceTimersByTimeAsync(1);
    expect(seen.error).toBeInstanceOf(DomainError);
    expect((seen.error as DomainError).code).toBe(DomainErrorCode.UNAVAILABLE);
  });

  it('counts the deadline from when the request was sent, not from when the work started', async () => {
    const seen = outcome(withinDeadline(never(), Date.now() - 600, 700, { upSince: () => false }));
    await jest.advanceTimersByTimeAsync(100);
    expect((seen.error as DomainError).code).toBe(DomainErrorCode.UNAVAILABLE);
  });

  it('keeps waiting while the database answers, and fails once it stops', async () => {
    let up = true;
    const seen = outcome(withinDeadline(never(), Date.now(), 700, { upSince: () => up }));
    await jest.advanceTimersByTimeAsync(2000);
    expect(seen).toEqual({});
    up = false;
    await jest.advanceTimersByTimeAsync(50);
    expect((seen.error as DomainError).code).toBe(DomainErrorCode.UNAVAILABLE);
  });
});
