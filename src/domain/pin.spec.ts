import { CascadeReason, resolveCascade } from './cascade';
import { DomainError } from './domain-error';
import { applyStatus, newDocument } from './health-entry';
import { PinRequest, pinEntry, unpinEntry } from './pin';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const NOW = new Date('2026-05-23T14:00:00Z');
const UNTIL = new Date('2026-05-24T14:00:00Z');
const TENANT_KEY = { scope: Scope.TENANT, scopeId: 't1', toolName: 'jira' };
const GLOBAL_KEY = { scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' };

const request = (patch: Partial<PinRequest> = {}): PinRequest => ({
  key: TENANT_KEY,
  status: ToolStatus.OK,
  until: UNTIL,
  reason: 'tenant runs its own Jira',
  by: 'admin:ops',
  now: NOW,
  historyLimit: 20,
  tenantId: 't1',
  ...patch,
});

const globalDown = (): ToolHealthDocument => ({
  ...newDocument(GLOBAL_KEY, new Date('2026-05-23T10:00:00Z')),
  status: ToolStatus.DOWN,
  code: ToolErrorCode.BACKEND_FAILED,
  since: new Date('2026-05-23T10:00:00Z'),
});

function invalidField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.field : 'not a DomainError';
  }
  return undefined;
}

describe('pinEntry (D4b)', () => {
  it('creates a neutral document holding the pin when the key has none, and records it in history', () => {
    const doc = pinEntry(request())(null)!;
    expect(doc).toMatchObject({ scope: Scope.TENANT, scopeId: 't1', toolName: 'jira', tenantId: 't1', status: ToolStatus.OK, version: 0 });
    expect(doc.pin).toEqual({ status: ToolStatus.OK, until: UNTIL, reason: 'tenant runs its own Jira', by: 'admin:ops', at: NOW });
    expect(doc.history).toEqual([
      {
        classification: null,
        code: null,
        note: 'pinned OK until 2026-05-24T14:00:00.000Z: tenant runs its own Jira',
        by: 'admin:ops',
        at: NOW,
        status: ToolStatus.OK,
        recoveryAt: null,
      },
    ]);
    expect(doc.lastDiagnosis).toBeNull();
  });

  it('wins over a wider DOWN entry in the cascade until it ends', () => {
    const pinned = pinEntry(request())(null)!;
    const context = { tenantId: 't1' };
    const during = resolveCascade('jira', context, [pinned, globalDown()], NOW);
    expect(during).toMatchObject({ status: ToolStatus.OK, reason: CascadeReason.PINNED, winner: { scope: Scope.TENANT } });
    const after = resolveCascade('jira', context, [pinned, globalDown()], new Date(UNTIL.getTime() + 1));
    expect(after).toMatchObject({ status: ToolStatus.DOWN, reason: CascadeReason.LIVE_PROBLEM, winner: { scope: Scope.GLOBAL } });
  });

  it('leaves the stored status alone; a verdict under the pin updates the stored status while the pin keeps deciding (P6)', () => {
    const down = globalDown();
    const pinned = pinEntry(request({ key: GLOBAL_KEY, tenantId: null }))(down)!;
    expect(pinned.status).toBe(ToolStatus.DOWN);
    expect(pinned.since).toEqual(down.since);
    const verdict = applyStatus(pinned, {
      status: ToolStatus.OK,
      diagnosis: { classification: null, code: null, note: 'probe', by: 'system:probe', at: NOW },
      expectedRecoveryAt: null,
      code: null,
      historyLimit: 20,
      now: NOW,
    });
    expect(verdict.status).toBe(ToolStatus.OK);
    expect(verdict.pin).toEqual(pinned.pin);
    expect(verdict.history.map((h) => h.by)).toEqual(['admin:ops', 'system:probe']);
  });

  it('returns the same reference when the pin in force is sent again, and replaces a different one', () => {
    const pinned = pinEntry(request())(null)!;
    const later = new Date(NOW.getTime() + 60_000);
    expect(pinEntry(request({ now: later }))(pinned)).toBe(pinned);
    const changed = pinEntry(request({ now: later, status: ToolStatus.DOWN, reason: 'backend swap tonight' }))(pinned)!;
    expect(changed.pin).toMatchObject({ status: ToolStatus.DOWN, reason: 'backend swap tonight', at: later });
    expect(changed.history).toHaveLength(2);
  });

  it('pins again once the previous identical pin has ended', () => {
    const pinned = pinEntry(request())(null)!;
    const late = new Date(UNTIL.getTime() + 1000);
    const renewed = pinEntry(request({ now: late, until: new Date(late.getTime() + 3600_000) }))(pinned)!;
    expect(renewed).not.toBe(pinned);
    expect(renewed.pin?.at).toEqual(late);
  });

  it('keeps the history within the tenant limit', () => {
    let doc: ToolHealthDocument | null = null;
    for (let i = 0; i < 5; i++) doc = pinEntry(request({ reason: `r${i}`, historyLimit: 3 }))(doc);
    expect(doc!.history.map((h) => h.note?.split(': ')[1])).toEqual(['r2', 'r3', 'r4']);
  });

  it.each([
    ['a status that is not OK or DOWN', { status: ToolStatus.DEGRADED as never }, 'status'],
    ['an instant in the past', { until: new Date('2026-05-23T13:59:59Z') }, 'until'],
    ['an instant equal to now', { until: NOW }, 'until'],
    ['an invalid date', { until: new Date('nope') }, 'until'],
    ['a blank reason', { reason: '   ' }, 'reason'],
    ['a reason that is too long', { reason: 'x'.repeat(2001) }, 'reason'],
  ])('refuses %s before any read', (_, patch, field) => {
    expect(invalidField(() => pinEntry(request(patch as Partial<PinRequest>)))).toBe(field);
  });
});

describe('unpinEntry (D4b)', () => {
  const unpin = (now = NOW) => unpinEntry({ by: 'admin:ops', now, historyLimit: 20 });

  it('lifts the pin and records who did it', () => {
    const pinned = pinEntry(request())(null)!;
    const later = new Date(NOW.getTime() + 60_000);
    const doc = unpin(later)(pinned)!;
    expect(doc.pin).toBeNull();
    expect(doc.updatedAt).toEqual(later);
    expect(doc.history[1]).toMatchObject({
      by: 'admin:ops',
      classification: null,
      note: 'unpinned (was OK until 2026-05-24T14:00:00.000Z)',
    });
  });

  it('says so when the pin had already ended', () => {
    const pinned = pinEntry(request())(null)!;
    const doc = unpin(new Date(UNTIL.getTime() + 1))(pinned)!;
    expect(doc.history[1].note).toContain('already ended');
  });

  it('returns the same reference when there is no document or no pin', () => {
    expect(unpin()(null)).toBeNull();
    const plain = globalDown();
    expect(unpin()(plain)).toBe(plain);
  });
});
