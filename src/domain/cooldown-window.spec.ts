import { ToolHealthClassification as C } from './classification';
import { applyCooldown, DEFAULT_COOLDOWN_GRACE_MS } from './cooldown-policy';
import { changeCooldownWindow, MAX_WINDOW_MS } from './cooldown-window';
import { DomainError, DomainErrorCode } from './domain-error';
import { newDocument } from './health-entry';
import { Scope } from './scope';
import { CooldownEntry, ToolHealthDocument } from './tool-health-document';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A USER_PERMISSION cooldown started at T0 with its 24 h default, 3 hits so far. */
function withCooldown(overrides: Partial<CooldownEntry> = {}): ToolHealthDocument {
  const entry: CooldownEntry = {
    errorSignature: 'http-403',
    userId: 'alice',
    nextSpawnAllowedAt: at(24 * H),
    hits: 3,
    lastClassification: C.USER_PERMISSION,
    lastTriggeredAt: at(5 * MIN),
    windowMs: 24 * H,
    ...overrides,
  };
  return { ...newDocument({ scope: Scope.PROJECT, scopeId: 'p-1', toolName: 'jira_search' }, T0), cooldowns: [entry] };
}

function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

describe('changeCooldownWindow (P85)', () => {
  it('shortens a running cooldown from its start, not from now', () => {
    const after = changeCooldownWindow(withCooldown(), { errorSignature: 'http-403', userId: 'alice', windowMs: 2 * H, now: at(30 * MIN) });
    const [e] = after.cooldowns;
    expect(e.windowMs).toBe(2 * H);
    expect(e.nextSpawnAllowedAt).toEqual(at(2 * H)); // T0 + 2 h; setCooldown(durationMs) would give now + 2 h
    expect(e.hits).toBe(3);
    expect(e.lastTriggeredAt).toEqual(at(5 * MIN));
    expect(e.lastClassification).toBe(C.USER_PERMISSION);
    expect(after.updatedAt).toEqual(at(30 * MIN));
  });

  it('lengthens a running cooldown from its start', () => {
    const [e] = changeCooldownWindow(withCooldown(), {
      errorSignature: 'http-403',
      userId: 'alice',
      windowMs: 48 * H,
      now: at(H),
    }).cooldowns;
    expect(e.nextSpawnAllowedAt).toEqual(at(48 * H));
  });

  it('ends a running cooldown now when the new window has already passed', () => {
    const [e] = changeCooldownWindow(withCooldown(), {
      errorSignature: 'http-403',
      userId: 'alice',
      windowMs: 10 * MIN,
      now: at(H),
    }).cooldowns;
    expect(e.nextSpawnAllowedAt).toEqual(at(H));
    expect(e.windowMs).toBe(10 * MIN);
  });

  it('leaves an expired cooldown expired and only changes the base of its next step', () => {
    const expired = withCooldown({ lastClassification: C.USER_SPECIFIC_TECHNICAL, windowMs: 15 * MIN, nextSpawnAllowedAt: at(15 * MIN) });
    const changed = changeCooldownWindow(expired, { errorSignature: 'http-403', userId: 'alice', windowMs: 40 * MIN, now: at(H) });
    expect(changed.cooldowns[0].nextSpawnAllowedAt).toEqual(at(15 * MIN));
    // the next repetition within the grace period doubles the admin's window (the ladder of USER_SPECIFIC_TECHNICAL)
    const next = applyCooldown(changed, {
      errorSignature: 'http-403',
      userId: 'alice',
      classification: C.USER_SPECIFIC_TECHNICAL,
      now: at(H),
      graceMs: DEFAULT_COOLDOWN_GRACE_MS,
    });
    expect(next.cooldowns[0].windowMs).toBe(80 * MIN);
    expect(next.cooldowns[0].nextSpawnAllowedAt).toEqual(at(H + 80 * MIN));
  });

  it('leaves the other cooldowns and the input document alone', () => {
    const base = withCooldown();
    const other: CooldownEntry = { ...base.cooldowns[0], userId: 'bob' };
    const input = { ...base, cooldowns: [...base.cooldowns, other] };
    const after = changeCooldownWindow(input, { errorSignature: 'http-403', userId: 'alice', windowMs: 2 * H, now: at(MIN) });
    expect(after.cooldowns[1]).toBe(other);
    expect(input.cooldowns[0].windowMs).toBe(24 * H);
  });

  it('is NOT_FOUND for a cooldown that does not exist (the scope-wide one is another cooldown)', () => {
    const e = errorOf(() => changeCooldownWindow(withCooldown(), { errorSignature: 'http-403', userId: null, windowMs: 2 * H, now: T0 }));
    expect(e.code).toBe(DomainErrorCode.NOT_FOUND);
  });

  it.each([0, 999, 1500.5, MAX_WINDOW_MS + 1, Number.NaN])('refuses a window of %s naming windowMs', (windowMs) => {
    const e = errorOf(() => changeCooldownWindow(withCooldown(), { errorSignature: 'http-403', userId: 'alice', windowMs, now: T0 }));
    expect(e.code).toBe(DomainErrorCode.INVALID_ARGUMENT);
    expect(e.field).toBe('windowMs');
  });
});
