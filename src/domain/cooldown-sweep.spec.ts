import { ToolHealthClassification as C } from './classification';
import { isDueForProbe, sweepCooldowns } from './cooldown-sweep';
import { newDocument } from './health-entry';
import { Scope } from './scope';
import { CooldownEntry, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const GRACE = 24 * H;
const at = (ms: number) => new Date(T0.getTime() + ms);

function doc(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument({ scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' }, at(-48 * H)), ...overrides };
}

function cd(errorSignature: string, nextSpawnAllowedAt: Date): CooldownEntry {
  return {
    errorSignature,
    userId: null,
    nextSpawnAllowedAt,
    hits: 0,
    lastClassification: C.INTERMITTENT,
    lastTriggeredAt: null,
    windowMs: MIN,
  };
}

describe('sweepCooldowns (D9)', () => {
  const entries = [
    cd('active', at(MIN)),
    cd('just-expired', at(-MIN)),
    cd('at-grace-limit', at(-GRACE)),
    cd('past-grace', at(-GRACE - 1)),
    cd('long-gone', at(-3 * GRACE)),
  ];

  it('removes only entries expired longer than the grace period', () => {
    const before = doc({ cooldowns: entries });
    const after = sweepCooldowns(before, T0, GRACE);
    expect(after.cooldowns.map((e) => e.errorSignature)).toEqual(['active', 'just-expired', 'at-grace-limit']);
    expect(after.updatedAt).toEqual(T0);
    expect(before.cooldowns).toHaveLength(5);
  });

  it('honours a configured grace period', () => {
    const after = sweepCooldowns(doc({ cooldowns: entries }), T0, 30_000);
    expect(after.cooldowns.map((e) => e.errorSignature)).toEqual(['active']);
  });

  it('returns the same reference when nothing is old enough', () => {
    const before = doc({ cooldowns: entries.slice(0, 3) });
    expect(sweepCooldowns(before, T0, GRACE)).toBe(before);
  });
});

describe('isDueForProbe (D11)', () => {
  const PROBE_AFTER = 30 * MIN;
  it.each<[string, Partial<ToolHealthDocument>, boolean]>([
    ['DOWN, no estimate, checked long ago', { status: ToolStatus.DOWN, lastCheckedAt: at(-31 * MIN) }, true],
    ['DOWN, no estimate, checked recently', { status: ToolStatus.DOWN, lastCheckedAt: at(-10 * MIN) }, false],
    ['DOWN, checked exactly probeAfter ago', { status: ToolStatus.DOWN, lastCheckedAt: at(-30 * MIN) }, false],
    ['DOWN, never checked, down since long ago', { status: ToolStatus.DOWN, lastCheckedAt: null, since: at(-2 * H) }, true],
    ['DOWN, never checked, down since recently', { status: ToolStatus.DOWN, lastCheckedAt: null, since: at(-MIN) }, false],
    ['DOWN with an estimate', { status: ToolStatus.DOWN, expectedRecoveryAt: at(H), lastCheckedAt: at(-2 * H) }, false],
    ['DEGRADED', { status: ToolStatus.DEGRADED, lastCheckedAt: at(-2 * H) }, false],
    ['OK', { lastCheckedAt: at(-2 * H) }, false],
    [
      'pinned DOWN',
      {
        status: ToolStatus.DOWN,
        lastCheckedAt: at(-2 * H),
        pin: { status: ToolStatus.DOWN, until: at(H), reason: 'r', by: 'admin:a', at: at(-H) },
      },
      false,
    ],
  ])('%s → %p', (_label, overrides, due) => {
    expect(isDueForProbe(doc(overrides), T0, PROBE_AFTER)).toBe(due);
  });
});
