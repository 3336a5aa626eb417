import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { armDeadline, withinDeadline } from './request-deadline';

describe('withinDeadline (P41; MCP tool calls P136, the Idempotency-Key hook, GraphQL root fields)', () => {
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

  it('answers at the deadline with the error its caller gives, and hands the work over there', async () => {
    let handedOver: Promise<string> | undefined;
    const work = never();
    const seen = outcome(
      withinDeadline(work, Date.now(), 700, { upSince: () => false }, () => {
        handedOver = work;
        return new DomainError(DomainErrorCode.UNAVAILABLE, 'the write may still be applied', undefined, true);
      }),
    );
    await jest.advanceTimersByTimeAsync(700);
    expect(handedOver).toBe(work);
    expect((seen.error as DomainError).writeMayHaveApplied).toBe(true);
  });
});

describe('armDeadline (P41)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('runs expire once at the deadline, and never once stopped', async () => {
    const expired: number[] = [];
    armDeadline(Date.now(), 300, { upSince: () => false }, () => expired.push(Date.now()));
    const stop = armDeadline(Date.now(), 300, { upSince: () => false }, () => expired.push(-1));
    await jest.advanceTimersByTimeAsync(100);
    stop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(expired).toEqual([1_000_300]);
  });

  it('looks again every 50 ms while the database answers, and stops looking when stopped', async () => {
    let up = true;
    let looks = 0;
    const stop = armDeadline(Date.now(), 300, { upSince: () => (looks++, up) }, () => (up = false));
    await jest.advanceTimersByTimeAsync(400);
    expect(looks).toBe(3); // at 300, 350 and 400 ms
    stop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(looks).toBe(3);
  });
});
