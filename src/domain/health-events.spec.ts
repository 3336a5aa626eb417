import { ToolHealthClassification as C } from './classification';
import { applyDiagnosis } from './diagnosis-effects';
import { newDocument } from './health-entry';
import { HealthEventType as E, deletedEvent, healthEventsOf } from './health-events';
import { Scope } from './scope';
import { markUnavailable } from './system-writes';
import { CooldownEntry, Diagnosis, HealthKey, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

const T0 = new Date('2026-05-23T14:00:00Z');
const MIN = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const KEY: HealthKey = { scope: Scope.USER, scopeId: 'alice', toolName: 'jira' };

function doc(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  return { ...newDocument(KEY, at(-60 * MIN)), version: 4, updatedAt: at(-MIN), ...overrides };
}
/** The same document after a write at T0, stored as version 5. */
const written = (before: ToolHealthDocument, overrides: Partial<ToolHealthDocument> = {}) => ({
  ...before,
  version: 5,
  updatedAt: T0,
  ...overrides,
});

function cd(errorSignature: string, nextSpawnAllowedAt: Date, userId: string | null = null): CooldownEntry {
  return { errorSignature, userId, nextSpawnAllowedAt, hits: 0, lastClassification: C.INTERMITTENT, lastTriggeredAt: null, windowMs: MIN };
}

function diag(classification: C | null, at_: Date, by = 'agrajag-1'): Diagnosis {
  return { classification, code: null, note: 'n', by, at: at_ };
}

const ids = (before: ToolHealthDocument | null, after: ToolHealthDocument) => healthEventsOf(before, after).map((e) => e.id);

describe('healthEventsOf: STATUS_CHANGED', () => {
  it('emits when the status differs, with the previous status', () => {
    const before = doc();
    const events = healthEventsOf(before, written(before, { status: ToolStatus.DOWN, code: ToolErrorCode.BACKEND_FAILED }));
    expect(events).toEqual([
      {
        id: `${before.id}:0:5:STATUS_CHANGED`,
        type: E.STATUS_CHANGED,
        docId: before.id,
        scope: Scope.USER,
        scopeId: 'alice',
        toolName: 'jira',
        status: ToolStatus.DOWN,
        effectiveStatus: ToolStatus.DOWN,
        tenantId: null,
        at: T0,
        payload: {
          previousStatus: ToolStatus.OK,
          expectedRecoveryAt: null,
          code: ToolErrorCode.BACKEND_FAILED,
          classification: null,
          note: null,
          by: null,
        },
      },
    ]);
  });

  it("carries the reason and writer of the history item the write added, the entry's tenant, and the status a pin makes it read as", () => {
    const before = doc({ tenantId: 'acme' });
    const verdict = { ...diag(C.TECHNICALLY_BROKEN, T0), note: 'MCP connection closed', status: ToolStatus.DOWN, recoveryAt: null };
    const [changed] = healthEventsOf(before, written(before, { status: ToolStatus.DOWN, history: [...before.history, verdict] }));
    expect(changed).toMatchObject({
      tenantId: 'acme',
      effectiveStatus: ToolStatus.DOWN,
      payload: { classification: C.TECHNICALLY_BROKEN, note: 'MCP connection closed', by: 'agrajag-1' },
    });
    const pinned = doc({ pin: { status: ToolStatus.OK, until: new Date(T0.getTime() + 3_600_000), reason: 'r', by: 'admin:ops', at: T0 } });
    const [underPin] = healthEventsOf(pinned, written(pinned, { status: ToolStatus.DOWN }));
    expect(underPin).toMatchObject({ status: ToolStatus.DOWN, effectiveStatus: ToolStatus.OK });
  });

  it('no event when the status is the same', () => {
    const before = doc({ status: ToolStatus.DOWN });
    expect(healthEventsOf(before, written(before, { lastCheckedAt: T0 }))).toEqual([]);
  });

  it.each([
    [ToolStatus.OK, []],
    [ToolStatus.DEGRADED, ['STATUS_CHANGED']],
  ])('a new document with status %s', (status, expected) => {
    const after = written(doc(), { status, version: 1 });
    const events = healthEventsOf(null, after);
    expect(events.map((e) => e.type)).toEqual(expected);
    if (events.length) expect(events[0].payload).toMatchObject({ previousStatus: null });
  });
});

describe('healthEventsOf: cooldowns', () => {
  it('COOLDOWN_SET for a new entry and for an expiry moved later; ids carry signature and user', () => {
    const before = doc({ cooldowns: [cd('a', at(MIN)), cd('b', at(MIN), 'alice'), cd('c', at(MIN))] });
    const after = written(before, {
      cooldowns: [cd('a', at(5 * MIN)), cd('b', at(MIN), 'alice'), cd('c', at(MIN)), cd('d', at(MIN), 'alice')],
    });
    const events = healthEventsOf(before, after);
    expect(events.map((e) => e.id)).toEqual([`${before.id}:0:5:COOLDOWN_SET:a:*`, `${before.id}:0:5:COOLDOWN_SET:d:alice`]);
    expect(events[0].payload).toEqual({
      errorSignature: 'a',
      userId: null,
      nextSpawnAllowedAt: at(5 * MIN),
      windowMs: MIN,
      lastClassification: C.INTERMITTENT,
    });
  });

  it('a ladder restart of an expired entry is a COOLDOWN_SET', () => {
    const before = doc({ cooldowns: [cd('a', at(-MIN))] });
    expect(ids(before, written(before, { cooldowns: [cd('a', at(2 * MIN))] }))).toEqual([`${before.id}:0:5:COOLDOWN_SET:a:*`]);
  });

  it('COOLDOWN_EXPIRED for an active entry ended now or removed', () => {
    const before = doc({ cooldowns: [cd('ended', at(MIN)), cd('removed', at(MIN), 'bob'), cd('kept', at(MIN))] });
    const after = written(before, { cooldowns: [cd('ended', T0), cd('kept', at(MIN))] });
    const events = healthEventsOf(before, after);
    expect(events.map((e) => e.id)).toEqual([`${before.id}:0:5:COOLDOWN_EXPIRED:ended:*`, `${before.id}:0:5:COOLDOWN_EXPIRED:removed:bob`]);
    expect(events.map((e) => e.type)).toEqual([E.COOLDOWN_EXPIRED, E.COOLDOWN_EXPIRED]);
  });

  it('no event for entries that had already expired before the write (sweep, cap)', () => {
    const before = doc({ cooldowns: [cd('old', at(-2 * MIN)), cd('over', at(-MIN))] });
    expect(healthEventsOf(before, written(before, { cooldowns: [cd('over', at(-MIN))] }))).toEqual([]);
  });

  it('D20: an end moved earlier, still running, is a COOLDOWN_SET', () => {
    const before = doc({ cooldowns: [cd('a', at(60 * MIN))] });
    expect(ids(before, written(before, { cooldowns: [cd('a', at(30 * MIN))] }))).toEqual([`${before.id}:0:5:COOLDOWN_SET:a:*`]);
  });

  it('D20: a class change of a running entry is a COOLDOWN_SET, its end unchanged', () => {
    const before = doc({ cooldowns: [{ ...cd('a', at(5 * MIN), 'alice'), lastClassification: C.USER_INPUT }] });
    const after = written(before, { cooldowns: [{ ...cd('a', at(5 * MIN), 'alice'), lastClassification: C.USER_PERMISSION }] });
    const events = healthEventsOf(before, after);
    expect(events.map((e) => [e.type, (e.payload as { lastClassification: C }).lastClassification])).toEqual([
      [E.COOLDOWN_SET, C.USER_PERMISSION],
    ]);
  });

  it('an entry set to end at once is not a COOLDOWN_SET', () => {
    const before = doc();
    expect(healthEventsOf(before, written(before, { cooldowns: [cd('zero', T0)] }))).toEqual([]);
  });
});

describe('healthEventsOf: INBOX_ITEM', () => {
  it('a new USER_SPECIFIC_TECHNICAL diagnosis notifies the document user', () => {
    const before = doc();
    const after = written(before, { status: ToolStatus.DOWN, lastDiagnosis: diag(C.USER_SPECIFIC_TECHNICAL, T0) });
    const inbox = healthEventsOf(before, after).find((e) => e.type === E.INBOX_ITEM);
    expect(inbox).toMatchObject({
      id: `${before.id}:0:5:INBOX_ITEM`,
      payload: { userId: 'alice', classification: C.USER_SPECIFIC_TECHNICAL, note: 'n', by: 'agrajag-1', code: null },
    });
  });

  it('TECHNICALLY_BROKEN is an inbox item without a user', () => {
    const before = doc();
    const after = written(before, { lastDiagnosis: diag(C.TECHNICALLY_BROKEN, T0) });
    expect(healthEventsOf(before, after)).toEqual([
      expect.objectContaining({ type: E.INBOX_ITEM, payload: expect.objectContaining({ userId: null }) }),
    ]);
  });

  it.each([
    ['the same diagnosis again', diag(C.USER_SPECIFIC_TECHNICAL, at(-MIN)), diag(C.USER_SPECIFIC_TECHNICAL, at(-MIN))],
    ['another class', null, diag(C.INTERMITTENT, T0)],
    ['a system write', null, diag(null, T0, 'system:foot')],
    ['no diagnosis', null, null],
  ])('no inbox item for %s', (_label, prior, next) => {
    const before = doc({ lastDiagnosis: prior });
    expect(healthEventsOf(before, written(before, { lastDiagnosis: next })).map((e) => e.type)).not.toContain(E.INBOX_ITEM);
  });

  it.each([
    ['a different instant', diag(C.USER_SPECIFIC_TECHNICAL, T0)],
    ['a different writer at the same instant', diag(C.USER_SPECIFIC_TECHNICAL, at(-MIN), 'agrajag-2')],
  ])('a new diagnosis by %s is an inbox item', (_label, next) => {
    const before = doc({ lastDiagnosis: diag(C.USER_SPECIFIC_TECHNICAL, at(-MIN)) });
    expect(healthEventsOf(before, written(before, { lastDiagnosis: next })).map((e) => e.type)).toContain(E.INBOX_ITEM);
  });
});

describe('healthEventsOf: idempotent ids and real write paths', () => {
  it('the same write gives the same ids; the next version gives different ones', () => {
    const before = doc({ cooldowns: [cd('a', at(MIN))] });
    const after = written(before, {
      status: ToolStatus.DOWN,
      cooldowns: [cd('a', at(9 * MIN))],
      lastDiagnosis: diag(C.USER_SPECIFIC_TECHNICAL, T0),
    });
    const first = ids(before, after);
    expect(first).toHaveLength(3);
    expect(ids(structuredClone(before), structuredClone(after))).toEqual(first);
    const next = ids(before, { ...after, version: 6 });
    expect(next.filter((id) => first.includes(id))).toEqual([]);
  });

  it('a USER_SPECIFIC_TECHNICAL verdict emits status, cooldown and inbox events', () => {
    const before = doc();
    const reduced = applyDiagnosis({
      key: KEY,
      classification: C.USER_SPECIFIC_TECHNICAL,
      note: 'token expired',
      by: 'agrajag-3',
      errorSignature: 'token',
      userId: 'alice',
      now: T0,
      historyLimit: 20,
      graceMs: 24 * 60 * MIN,
    })(before)!;
    expect(ids(before, { ...reduced, version: 5 })).toEqual([
      `${before.id}:0:5:STATUS_CHANGED`,
      `${before.id}:0:5:COOLDOWN_SET:token:alice`,
      `${before.id}:0:5:INBOX_ITEM`,
    ]);
  });

  it('a system write emits only the status change', () => {
    const after = markUnavailable({ key: KEY, source: 'foot', code: ToolErrorCode.BACKEND_UNREACHABLE, now: T0, historyLimit: 20 })(null)!;
    expect(healthEventsOf(null, { ...after, version: 1 }).map((e) => e.type)).toEqual([E.STATUS_CHANGED]);
  });
});

describe('pin and delete events (D4b, D14)', () => {
  const until = at(24 * 60 * MIN);
  const pin = { status: ToolStatus.OK as const, until, reason: 'own backend', by: 'admin:ops', at: T0 };
  const pinned = written(doc(), { pin });

  it('emits PIN_SET when a pin appears or changes, nothing when it is sent again, PIN_CLEARED when removed', () => {
    expect(healthEventsOf(doc(), pinned).map((e) => e.type)).toEqual([E.PIN_SET]);
    expect(healthEventsOf(pinned, { ...pinned, version: 6 })).toEqual([]);
    expect(healthEventsOf(pinned, { ...pinned, version: 6, pin: { ...pin, status: ToolStatus.DOWN } }).map((e) => e.type)).toEqual([
      E.PIN_SET,
    ]);
    expect(healthEventsOf(pinned, { ...pinned, version: 6, pin: null })).toEqual([
      expect.objectContaining({
        type: E.PIN_CLEARED,
        id: 'USER|alice|jira:0:6:PIN_CLEARED',
        payload: { pinnedStatus: ToolStatus.OK, until, reason: 'own backend', by: 'admin:ops' },
      }),
    ]);
  });

  it('names a hard delete by the deleted version', () => {
    expect(deletedEvent(doc({ status: ToolStatus.DOWN }), 'admin:ops', T0)).toMatchObject({
      id: 'USER|alice|jira:0:4:DELETED',
      type: E.DELETED,
      payload: { previousStatus: ToolStatus.DOWN, by: 'admin:ops' },
    });
  });
});

describe('issue 11, sequences 8 and 10: ids and pin events (P54, P55)', () => {
  const until = at(60 * MIN);
  const pin = { status: ToolStatus.OK as const, until, reason: 'own backend', by: 'admin:ops', at: T0 };

  it('a new life of the document never repeats an id of the earlier one', () => {
    const first = written(doc(), { status: ToolStatus.DOWN, version: 1 });
    const a = healthEventsOf(null, first, 'life-a').map((e) => e.id);
    const b = healthEventsOf(null, first, 'life-b').map((e) => e.id);
    expect(a).toEqual(['USER|alice|jira:life-a:1:STATUS_CHANGED']);
    expect(b).not.toEqual(a);
    expect(deletedEvent(first, 'admin:ops', T0, 'life-a').id).toBe('USER|alice|jira:life-a:1:DELETED');
  });

  it('cooldown id parts are URI-encoded, so ":" and "*" cannot make two ids collide', () => {
    const before = doc({
      cooldowns: [cd('x:a', at(5 * MIN), 'b'), cd('x', at(5 * MIN), 'a:b'), cd('s', at(5 * MIN), '*'), cd('s', at(5 * MIN))],
    });
    const after = written(before, { cooldowns: before.cooldowns.map((e) => ({ ...e, nextSpawnAllowedAt: T0 })) });
    const ids = healthEventsOf(before, after).map((e) => e.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids).toContain(`${before.id}:0:5:COOLDOWN_EXPIRED:x%3Aa:b`);
    expect(ids).toContain(`${before.id}:0:5:COOLDOWN_EXPIRED:s:%2A`);
  });

  it('a pin removed after its end is PIN_ENDED; before its end PIN_CLEARED', () => {
    const pinned = written(doc(), { pin });
    const ended = { ...pinned, version: 6, pin: null, updatedAt: until };
    expect(healthEventsOf(pinned, ended).map((e) => e.type)).toEqual([E.PIN_ENDED]);
    expect(healthEventsOf(pinned, { ...pinned, version: 6, pin: null }).map((e) => e.type)).toEqual([E.PIN_CLEARED]);
  });

  it('the same pin re-sent by another admin is a PIN_SET (it writes history, so it is an act)', () => {
    const pinned = written(doc(), { pin });
    const again = { ...pinned, version: 6, pin: { ...pin, by: 'admin:other', at: at(MIN) } };
    expect(healthEventsOf(pinned, again).map((e) => e.type)).toEqual([E.PIN_SET]);
  });
});
