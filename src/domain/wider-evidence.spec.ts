import { ToolHealthClassification } from './classification';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import {
  DistinctCounts,
  WiderEvidenceSettings,
  addBounded,
  bucketId,
  countDistinct,
  countsAsWiderEvidence,
  crossingPeriod,
  evidenceKeysOf,
  judgeWiderEvidence,
  newTally,
  tallyAdd,
  tallyCounts,
  widerCoalescingKey,
  windowStarts,
} from './wider-evidence';

const S: WiderEvidenceSettings = { users: 5, projects: 3, tenants: 2, buckets: 10, bucketMs: 60_000 };
const NOW = new Date('2026-05-23T14:30:30Z');
const MIN = 60_000;
const start = (minutesAgo: number) => windowStarts(NOW, S)[S.buckets - 1] - minutesAgo * MIN;
const bucket = (minutesAgo: number, users: string[], projects: string[], tenants: string[] = []) => ({
  start: start(minutesAgo),
  sets: { users, projects, tenants },
});
const counts = (users: number, projects: number, tenants = 1): DistinctCounts => ({ users, projects, tenants, since: NOW });

describe('windowStarts', () => {
  it('holds ten minute buckets ending with the current one', () => {
    const starts = windowStarts(NOW, S);
    expect(starts).toHaveLength(10);
    expect(new Date(starts[9]).toISOString()).toBe('2026-05-23T14:30:00.000Z');
    expect(new Date(starts[0]).toISOString()).toBe('2026-05-23T14:21:00.000Z');
  });
});

describe('countDistinct', () => {
  it('unions the window buckets and ignores those that slid out', () => {
    const result = countDistinct(
      [
        bucket(0, ['a', 'b'], ['p1']),
        bucket(3, ['b', 'c'], ['p1', 'p2'], ['t1']),
        bucket(9, ['d'], ['p3']),
        bucket(10, ['e', 'f'], ['p4']),
      ],
      NOW,
      S,
    );
    expect(result).toEqual({ users: 4, projects: 3, tenants: 1, since: new Date(start(9)) });
  });

  it('has no since when nothing is in the window', () => {
    expect(countDistinct([bucket(12, ['a'], ['p'])], NOW, S)).toEqual({ users: 0, projects: 0, tenants: 0, since: null });
  });
});

describe('judgeWiderEvidence', () => {
  it('4 users: nothing; the 5th in a 3rd project: TENANT', () => {
    expect(judgeWiderEvidence({ tenantId: 't1', counts: counts(4, 3) }, counts(4, 3), S)).toBeNull();
    expect(judgeWiderEvidence({ tenantId: 't1', counts: counts(5, 2) }, counts(5, 2), S)).toBeNull();
    expect(judgeWiderEvidence({ tenantId: 't1', counts: counts(5, 3) }, counts(5, 3), S)).toEqual({
      scope: Scope.TENANT,
      scopeId: 't1',
      distinctUsers: 5,
      distinctProjects: 3,
      since: NOW,
    });
  });

  it('GLOBAL only when the cross-tenant counts span enough tenants', () => {
    expect(judgeWiderEvidence(null, counts(9, 5, 2), S)).toMatchObject({ scope: Scope.GLOBAL, scopeId: null, distinctUsers: 9 });
    expect(judgeWiderEvidence({ tenantId: 't1', counts: counts(9, 5) }, counts(9, 5, 1), S)).toMatchObject({ scope: Scope.TENANT });
    expect(judgeWiderEvidence(null, counts(9, 5, 1), S)).toBeNull();
  });

  it('follows configured thresholds', () => {
    expect(judgeWiderEvidence({ tenantId: 't1', counts: counts(2, 1) }, counts(2, 1), { ...S, users: 2, projects: 1 })).toMatchObject({
      scope: Scope.TENANT,
    });
  });
});

describe('what counts', () => {
  const base = { code: ToolErrorCode.BACKEND_FAILED, underMaintenance: false };
  it('counts tool faults only, never user-class outcomes nor maintenance', () => {
    expect(countsAsWiderEvidence(base)).toBe(true);
    expect(countsAsWiderEvidence({ ...base, classification: ToolHealthClassification.INTERMITTENT })).toBe(true);
    expect(countsAsWiderEvidence({ ...base, classification: ToolHealthClassification.USER_PERMISSION })).toBe(false);
    expect(countsAsWiderEvidence({ ...base, classification: ToolHealthClassification.USER_INPUT })).toBe(false);
    expect(countsAsWiderEvidence({ ...base, hitClassification: ToolHealthClassification.USER_PERMISSION })).toBe(false);
    expect(countsAsWiderEvidence({ ...base, code: ToolErrorCode.NOT_REGISTERED })).toBe(false);
    expect(countsAsWiderEvidence({ ...base, underMaintenance: true })).toBe(false);
  });

  it('counts under the tenant key (when known) and the cross-tenant key', () => {
    expect(evidenceKeysOf('jira', 'http-502', { tenantId: 't1' }).map((k) => k.tenantId)).toEqual(['t1', null]);
    expect(evidenceKeysOf('jira', 'http-502', {}).map((k) => k.tenantId)).toEqual([null]);
    expect(bucketId({ toolName: 'jira', errorSignature: 'http-502', tenantId: null }, 0)).toBe('jira|http-502|*|0');
  });

  it('bounds a bucket set', () => {
    const set = new Set<string>();
    expect(addBounded(set, 'a', 2)).toBe(true);
    expect(addBounded(set, 'a', 2)).toBe(false);
    expect(addBounded(set, 'b', 2)).toBe(true);
    expect(addBounded(set, 'c', 2)).toBe(false);
    expect(addBounded(set, null, 2)).toBe(false);
    expect([...set]).toEqual(['a', 'b']);
  });
});

describe('keys and periods', () => {
  it('names the wider scope in the coalescing key', () => {
    const e = { distinctUsers: 5, distinctProjects: 3, since: NOW };
    expect(widerCoalescingKey('jira:http-502', { ...e, scope: Scope.TENANT, scopeId: 'acme' })).toBe('jira:http-502@TENANT:acme');
    expect(widerCoalescingKey('jira:http-502', { ...e, scope: Scope.GLOBAL, scopeId: null })).toBe('jira:http-502@GLOBAL');
  });

  it('has one crossing period per window length', () => {
    expect(crossingPeriod(NOW, S)).toBe(crossingPeriod(new Date(NOW.getTime() + MIN), S));
    expect(crossingPeriod(new Date(NOW.getTime() + 10 * MIN), S)).toBe(crossingPeriod(NOW, S) + 1);
  });
});

describe('the incremental tally', () => {
  it('answers like countDistinct at every step, the window sliding', () => {
    // A seeded pseudo-random run: 400 failures over 30 minutes, ids from small pools.
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const tally = newTally();
    const buckets = new Map<number, { users: Set<string>; projects: Set<string>; tenants: Set<string> }>();
    let now = new Date('2026-05-23T14:00:00Z').getTime();
    for (let i = 0; i < 400; i++) {
      now += rnd(9000);
      const at = new Date(now);
      const start = windowStarts(at, S)[S.buckets - 1];
      const b = buckets.get(start) ?? { users: new Set<string>(), projects: new Set<string>(), tenants: new Set<string>() };
      buckets.set(start, b);
      const sets = { users: [`u${rnd(12)}`], projects: [`p${rnd(5)}`], tenants: rnd(3) === 0 ? [] : [`t${rnd(3)}`] };
      sets.users.forEach((u) => b.users.add(u));
      sets.projects.forEach((p) => b.projects.add(p));
      sets.tenants.forEach((t) => b.tenants.add(t));
      tallyAdd(tally, start, sets);
      const reference = countDistinct(
        [...buckets].map(([s, sets]) => ({ start: s, sets })),
        at,
        S,
      );
      expect(tallyCounts(tally, at, S)).toEqual(reference);
    }
  });
});
