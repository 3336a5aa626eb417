import { ToolHealthClassification as C } from './classification';
import {
  COOLDOWN_LADDERS,
  DEFAULT_COOLDOWN_GRACE_MS,
  MAX_COOLDOWN_ENTRIES,
  applyCooldown,
  cooldownEntryKey,
  expireCooldowns,
  findCooldown,
  isCooldownActive,
} from './cooldown-policy';
import { DomainError, DomainErrorCode } from './domain-error';
import { Scope } from './scope';
import { CooldownEntry, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';
import { HOUR as H, MINUTE as MIN, SECOND as S, T0, aCooldownEntry, aKeyAt, aToolHealthDocument, at } from '../../test/factories';

const GRACE = DEFAULT_COOLDOWN_GRACE_MS;

/** A PROJECT document with no cooldown yet. */
function doc(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return aToolHealthDocument({ ...aKeyAt(Scope.PROJECT), ...overrides });
}

/** A scope-wide INTERMITTENT cooldown of http-502 running for ten minutes from T0. */
function entry(overrides: Partial<CooldownEntry> = {}): CooldownEntry {
  return aCooldownEntry({ nextSpawnAllowedAt: at(10 * MIN), windowMs: 10 * MIN, ...overrides });
}

/** Writes the same failure again each time the previous window has just ended; returns the windows. */
function ladder(classification: C, steps: number, start = doc()): number[] {
  const windows: number[] = [];
  let d = start;
  let now = T0;
  for (let i = 0; i < steps; i++) {
    d = applyCooldown(d, { errorSignature: 'sig', userId: null, classification, now, graceMs: GRACE });
    const e = findCooldown(d, 'sig', null)!;
    windows.push(e.windowMs);
    expect(e.nextSpawnAllowedAt.getTime() - now.getTime()).toBe(e.windowMs);
    now = new Date(e.nextSpawnAllowedAt.getTime() + 1 * S);
  }
  return windows;
}

describe('applyCooldown: ladders (§6, D9)', () => {
  it('INTERMITTENT: six repetitions just after expiry give 30 s, 2 min, 8 min, 32 min, 2 h, 2 h', () => {
    expect(ladder(C.INTERMITTENT, 6)).toEqual([30 * S, 2 * MIN, 8 * MIN, 32 * MIN, 2 * H, 2 * H]);
  });

  it('USER_SPECIFIC_TECHNICAL: 15 min doubling up to its 24 h cap', () => {
    expect(ladder(C.USER_SPECIFIC_TECHNICAL, 9)).toEqual([15 * MIN, 30 * MIN, 1 * H, 2 * H, 4 * H, 8 * H, 16 * H, 24 * H, 24 * H]);
  });

  it.each([
    [C.USER_PERMISSION, 24 * H],
    [C.USER_INPUT, 5 * MIN],
  ])('%s stays constant at its default', (classification, window) => {
    expect(ladder(classification, 4)).toEqual([window, window, window, window]);
  });

  it('WORKING sets no cooldown', () => {
    expect(() => applyCooldown(doc(), { errorSignature: 'sig', userId: null, classification: C.WORKING, now: T0, graceMs: GRACE })).toThrow(
      DomainError,
    );
  });
});

describe('applyCooldown: first write', () => {
  it('creates the entry with the class default, no hit, and leaves the input untouched', () => {
    const before = doc();
    const after = applyCooldown(before, {
      errorSignature: 'http-403',
      userId: 'alice',
      classification: C.USER_PERMISSION,
      now: at(MIN),
      graceMs: GRACE,
    });
    expect(after).not.toBe(before);
    expect(before.cooldowns).toEqual([]);
    expect(after.updatedAt).toEqual(at(MIN));
    expect(after.cooldowns).toEqual([
      {
        errorSignature: 'http-403',
        userId: 'alice',
        nextSpawnAllowedAt: at(MIN + 24 * H),
        hits: 0,
        lastClassification: C.USER_PERMISSION,
        lastTriggeredAt: null,
        windowMs: 24 * H,
      },
    ]);
  });

  it('keys entries by (signature, userId): Alice and a scope-wide entry are separate', () => {
    let d = applyCooldown(doc(), {
      errorSignature: 'http-403',
      userId: 'alice',
      classification: C.USER_PERMISSION,
      now: T0,
      graceMs: GRACE,
    });
    d = applyCooldown(d, { errorSignature: 'http-403', userId: null, classification: C.USER_INPUT, now: T0, graceMs: GRACE });
    expect(d.cooldowns.map((e) => [e.userId, e.windowMs])).toEqual([
      ['alice', 24 * H],
      [null, 5 * MIN],
    ]);
  });

  it('an explicit duration wins over the default', () => {
    const d = applyCooldown(doc(), {
      errorSignature: 's',
      userId: null,
      classification: C.USER_PERMISSION,
      durationMs: 7 * MIN,
      now: T0,
      graceMs: GRACE,
    });
    expect(findCooldown(d, 's', null)).toMatchObject({ windowMs: 7 * MIN, nextSpawnAllowedAt: at(7 * MIN) });
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects durationMs %p', (durationMs) => {
    expect(() =>
      applyCooldown(doc(), { errorSignature: 's', userId: null, classification: C.USER_INPUT, durationMs, now: T0, graceMs: GRACE }),
    ).toThrow(expect.objectContaining({ field: 'durationMs' }));
  });
});

describe('applyCooldown: TECHNICALLY_BROKEN is coupled to expectedRecoveryAt', () => {
  const write = (d: ToolHealthDocument, now: Date) =>
    findCooldown(
      applyCooldown(d, { errorSignature: 's', userId: null, classification: C.TECHNICALLY_BROKEN, now, graceMs: GRACE }),
      's',
      null,
    )!;

  it.each([
    ['future recovery', at(40 * MIN), at(40 * MIN), 40 * MIN],
    ['no recovery estimate', null, at(15 * MIN), 15 * MIN],
    ['recovery already past', at(-1 * MIN), at(15 * MIN), 15 * MIN],
    ['recovery exactly now', T0, at(15 * MIN), 15 * MIN],
  ])('%s', (_label, expectedRecoveryAt, until, windowMs) => {
    const e = write(doc({ status: ToolStatus.DOWN, expectedRecoveryAt }), T0);
    expect(e.nextSpawnAllowedAt).toEqual(until);
    expect(e.windowMs).toBe(windowMs);
  });

  it('a repetition follows the new estimate, not a multiple of the old window', () => {
    const first = applyCooldown(doc({ status: ToolStatus.DOWN, expectedRecoveryAt: at(10 * MIN) }), {
      errorSignature: 's',
      userId: null,
      classification: C.TECHNICALLY_BROKEN,
      now: T0,
      graceMs: GRACE,
    });
    const again = write({ ...first, expectedRecoveryAt: at(3 * H) }, at(11 * MIN));
    expect(again.nextSpawnAllowedAt).toEqual(at(3 * H));
  });

  it('D20: without an estimate a repetition climbs from the stored window (an admin set 3 s), not the 15 min default', () => {
    const stored = doc({
      status: ToolStatus.DOWN,
      cooldowns: [
        entry({ errorSignature: 's', lastClassification: C.TECHNICALLY_BROKEN, windowMs: 3 * S, nextSpawnAllowedAt: at(-7 * S) }),
      ],
    });
    const again = write(stored, T0);
    expect(again).toMatchObject({ windowMs: 3 * S, nextSpawnAllowedAt: at(3 * S) });
  });
});

describe('applyCooldown: writes to an existing entry', () => {
  const active = entry({ nextSpawnAllowedAt: at(10 * MIN), windowMs: 8 * MIN, hits: 3, lastTriggeredAt: at(1 * MIN) });

  it('while active: only lastClassification changes (no escalation, expiry and counters unchanged)', () => {
    const d = applyCooldown(doc({ cooldowns: [active] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.USER_SPECIFIC_TECHNICAL,
      now: at(5 * MIN),
      graceMs: GRACE,
    });
    expect(d.cooldowns).toEqual([{ ...active, lastClassification: C.USER_SPECIFIC_TECHNICAL }]);
    expect(d.updatedAt).toEqual(at(5 * MIN));
  });

  it('while active: an explicit duration wins and restarts the window from now', () => {
    const d = applyCooldown(doc({ cooldowns: [active] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.INTERMITTENT,
      durationMs: 1 * H,
      now: at(5 * MIN),
      graceMs: GRACE,
    });
    expect(d.cooldowns[0]).toMatchObject({ windowMs: 1 * H, nextSpawnAllowedAt: at(65 * MIN), hits: 3 });
  });

  it('the stored windowMs is the base of the next step: an admin edit changes the ladder', () => {
    const edited = entry({ nextSpawnAllowedAt: at(10 * MIN), windowMs: 3 * MIN });
    const d = applyCooldown(doc({ cooldowns: [edited] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.INTERMITTENT,
      now: at(11 * MIN),
      graceMs: GRACE,
    });
    expect(d.cooldowns[0]).toMatchObject({ windowMs: 12 * MIN, nextSpawnAllowedAt: at(23 * MIN) });
  });

  it('an admin window above the cap is not shrunk by a repetition', () => {
    const edited = entry({ nextSpawnAllowedAt: at(10 * MIN), windowMs: 6 * H });
    const d = applyCooldown(doc({ cooldowns: [edited] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.INTERMITTENT,
      now: at(11 * MIN),
      graceMs: GRACE,
    });
    expect(d.cooldowns[0].windowMs).toBe(6 * H);
  });

  it('an edited constant window is kept on repetition', () => {
    const edited = entry({ lastClassification: C.USER_PERMISSION, nextSpawnAllowedAt: at(10 * MIN), windowMs: 2 * H });
    const d = applyCooldown(doc({ cooldowns: [edited] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.USER_PERMISSION,
      now: at(11 * MIN),
      graceMs: GRACE,
    });
    expect(d.cooldowns[0].windowMs).toBe(2 * H);
  });

  it.each([
    ['exactly at the grace limit: repetition', GRACE, 32 * MIN],
    ['1 ms past the grace limit: the ladder restarts', GRACE + 1, 30 * S],
  ])('%s', (_label, sinceExpiry, window) => {
    const expired = entry({ nextSpawnAllowedAt: at(10 * MIN), windowMs: 8 * MIN });
    const now = at(10 * MIN + sinceExpiry);
    const d = applyCooldown(doc({ cooldowns: [expired] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.INTERMITTENT,
      now,
      graceMs: GRACE,
    });
    expect(d.cooldowns[0].windowMs).toBe(window);
    expect(d.cooldowns[0].nextSpawnAllowedAt).toEqual(new Date(now.getTime() + window));
  });

  it('a shorter configured grace period restarts sooner', () => {
    const expired = entry({ nextSpawnAllowedAt: at(10 * MIN), windowMs: 8 * MIN });
    const d = applyCooldown(doc({ cooldowns: [expired] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.INTERMITTENT,
      now: at(20 * MIN),
      graceMs: 5 * MIN,
    });
    expect(d.cooldowns[0].windowMs).toBe(30 * S);
  });

  it('a repetition under a different class starts that class ladder', () => {
    const expired = entry({ lastClassification: C.USER_INPUT, nextSpawnAllowedAt: at(10 * MIN), windowMs: 5 * MIN });
    const d = applyCooldown(doc({ cooldowns: [expired] }), {
      errorSignature: 'http-502',
      userId: null,
      classification: C.USER_PERMISSION,
      now: at(11 * MIN),
      graceMs: GRACE,
    });
    expect(d.cooldowns[0]).toMatchObject({ windowMs: 24 * H, lastClassification: C.USER_PERMISSION });
  });

  it('never mutates its input', () => {
    const before = doc({ cooldowns: [active] });
    const snapshot = structuredClone(before);
    applyCooldown(before, {
      errorSignature: 'http-502',
      userId: null,
      classification: C.INTERMITTENT,
      durationMs: H,
      now: at(5 * MIN),
      graceMs: GRACE,
    });
    expect(before).toEqual(snapshot);
  });
});

describe('applyCooldown: the 200-entry cap (D7)', () => {
  const full = (expiredIndexes: number[]) =>
    doc({
      cooldowns: Array.from({ length: MAX_COOLDOWN_ENTRIES }, (_, i) =>
        entry({
          errorSignature: `sig-${i}`,
          // expired ones end at different past instants; i=150 ends earliest
          nextSpawnAllowedAt: expiredIndexes.includes(i) ? at(-(i + 1) * MIN) : at(1 * H),
        }),
      ),
    });
  const write = (d: ToolHealthDocument, sig = 'new') =>
    applyCooldown(d, { errorSignature: sig, userId: null, classification: C.USER_INPUT, now: T0, graceMs: GRACE });

  it('adding the 201st drops the oldest expired entry', () => {
    const d = write(full([3, 150, 7]));
    expect(d.cooldowns).toHaveLength(MAX_COOLDOWN_ENTRIES);
    const sigs = d.cooldowns.map((e) => e.errorSignature);
    expect(sigs).not.toContain('sig-150');
    expect(sigs).toEqual(expect.arrayContaining(['sig-3', 'sig-7', 'new']));
  });

  it('with none expired it is a conflict', () => {
    expect(() => write(full([]))).toThrow(expect.objectContaining({ code: DomainErrorCode.CONFLICT }));
  });

  it('an entry whose expiry is exactly now counts as expired', () => {
    const d = full([]);
    d.cooldowns[42] = { ...d.cooldowns[42], nextSpawnAllowedAt: T0 };
    expect(write(d).cooldowns.map((e) => e.errorSignature)).not.toContain('sig-42');
  });

  it('updating an existing entry of a full document needs no room', () => {
    expect(write(full([]), 'sig-0').cooldowns).toHaveLength(MAX_COOLDOWN_ENTRIES);
  });

  it('199 entries take one more without dropping', () => {
    const d = full([5]);
    d.cooldowns.pop();
    expect(write(d).cooldowns.map((e) => e.errorSignature)).toContain('sig-5');
  });
});

describe('expireCooldowns', () => {
  const a = entry({ errorSignature: 'a', nextSpawnAllowedAt: at(10 * MIN) });
  const b = entry({ errorSignature: 'b', nextSpawnAllowedAt: at(10 * MIN) });
  const old = entry({ errorSignature: 'a', userId: 'bob', nextSpawnAllowedAt: at(-10 * MIN) });

  it('ends matching active entries now and keeps them', () => {
    const before = doc({ cooldowns: [a, b, old] });
    const after = expireCooldowns(before, (e) => e.errorSignature === 'a', at(MIN));
    expect(after.cooldowns).toEqual([{ ...a, nextSpawnAllowedAt: at(MIN) }, b, old]);
    expect(after.updatedAt).toEqual(at(MIN));
    expect(before.cooldowns[0]).toBe(a);
  });

  it('returns the same reference when nothing active matched', () => {
    const before = doc({ cooldowns: [a, old] });
    expect(expireCooldowns(before, (e) => e.userId === 'bob', at(MIN))).toBe(before);
    expect(expireCooldowns(before, () => false, at(MIN))).toBe(before);
  });
});

describe('isCooldownActive / cooldownEntryKey', () => {
  it.each([
    [at(1), true],
    [T0, false],
    [at(-1), false],
  ])('expiry %p at T0 → %p', (nextSpawnAllowedAt, active) => {
    expect(isCooldownActive(entry({ nextSpawnAllowedAt }), T0)).toBe(active);
  });

  it('entry keys are injective over (signature, userId)', () => {
    const keys = [
      cooldownEntryKey('a', null),
      cooldownEntryKey('a', 'null'),
      cooldownEntryKey('a:b', 'c'),
      cooldownEntryKey('a', 'b:c'),
      cooldownEntryKey('a', ''),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('the ladder table matches §6', () => {
    expect(COOLDOWN_LADDERS[C.INTERMITTENT]).toEqual({ defaultMs: 30 * S, factor: 4, maxMs: 2 * H });
    expect(COOLDOWN_LADDERS[C.USER_SPECIFIC_TECHNICAL]).toEqual({ defaultMs: 15 * MIN, factor: 2, maxMs: 24 * H });
  });
});
