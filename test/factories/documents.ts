import { ToolHealthClassification } from '../../src/domain/classification';
import { encodeKey } from '../../src/domain/health-key';
import { MaintenanceWindow } from '../../src/domain/maintenance-window';
import { Scope } from '../../src/domain/scope';
import {
  CallContext,
  CooldownEntry,
  Diagnosis,
  HealthKey,
  HistoryItem,
  Pin,
  ToolHealthDocument,
  blankFields,
} from '../../src/domain/tool-health-document';
import { ToolStatus } from '../../src/domain/tool-status';

/**
 * Test data for the domain types, one builder per type (docs/decisions.md P154). Each returns a
 * complete, valid value with neutral defaults, typed against the domain type: a new required
 * field is a type error here, once, not in every spec. Pass only what the test is about.
 */

/** The instant every default is anchored to. */
export const T0 = new Date('2026-01-01T00:00:00.000Z');

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

/** T0 moved by `offsetMs` (a fresh Date every call). */
export function at(offsetMs = 0): Date {
  return new Date(T0.getTime() + offsetMs);
}

/** A GLOBAL key of `example-tool`. */
export function aHealthKey(overrides: Partial<HealthKey> = {}): HealthKey {
  return { scope: Scope.GLOBAL, scopeId: null, toolName: 'example-tool', ...overrides };
}

/** A key at `scope` with the scope id the other builders use for it (GLOBAL: none). */
export function aKeyAt(scope: Scope, overrides: Partial<HealthKey> = {}): HealthKey {
  const scopeIds: Record<Scope, string | null> = {
    [Scope.SESSION]: 'session-1',
    [Scope.USER]: 'user-1',
    [Scope.PROJECT]: 'project-1',
    [Scope.TENANT]: 'tenant-1',
    [Scope.GLOBAL]: null,
  };
  return aHealthKey({ scope, scopeId: scopeIds[scope], ...overrides });
}

/** Every level of a caller's context, matching aKeyAt's scope ids. */
export function aCallContext(overrides: Partial<CallContext> = {}): CallContext {
  return { sessionId: 'session-1', userId: 'user-1', projectId: 'project-1', tenantId: 'tenant-1', ...overrides };
}

/**
 * A stored health document: GLOBAL, OK since T0, version 1, every other field blank
 * (blankFields, the domain's one list of them). The id follows the key unless given.
 */
export function aToolHealthDocument(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  const key = aHealthKey({
    ...(overrides.scope !== undefined ? { scope: overrides.scope } : {}),
    ...(overrides.scopeId !== undefined ? { scopeId: overrides.scopeId } : {}),
    ...(overrides.toolName !== undefined ? { toolName: overrides.toolName } : {}),
  });
  return {
    ...blankFields(),
    ...key,
    id: encodeKey(key),
    status: ToolStatus.OK,
    since: at(),
    version: 1,
    createdAt: at(),
    updatedAt: at(),
    ...overrides,
  };
}

/** A DOWN document: TECHNICALLY_BROKEN by an Agrajag verdict at T0, without an expected recovery. */
export function aDownDocument(overrides: Partial<ToolHealthDocument> = {}): ToolHealthDocument {
  const diagnosis = aDiagnosis();
  return aToolHealthDocument({
    status: ToolStatus.DOWN,
    lastDiagnosis: diagnosis,
    history: [aHistoryItem({ ...diagnosis, status: ToolStatus.DOWN })],
    lastCheckedAt: at(),
    ...overrides,
  });
}

/** A scope-wide INTERMITTENT cooldown of `http-502`, started at T0 with its first window (30 s). */
export function aCooldownEntry(overrides: Partial<CooldownEntry> = {}): CooldownEntry {
  return {
    errorSignature: 'http-502',
    userId: null,
    nextSpawnAllowedAt: at(30 * SECOND),
    hits: 0,
    lastClassification: ToolHealthClassification.INTERMITTENT,
    lastTriggeredAt: null,
    windowMs: 30 * SECOND,
    ...overrides,
  };
}

/** An Agrajag verdict: TECHNICALLY_BROKEN at T0. */
export function aDiagnosis(overrides: Partial<Diagnosis> = {}): Diagnosis {
  return { classification: ToolHealthClassification.TECHNICALLY_BROKEN, code: null, note: null, by: 'agrajag-1', at: at(), ...overrides };
}

/** A history entry: a system write at T0 that left the tool DOWN. */
export function aHistoryItem(overrides: Partial<HistoryItem> = {}): HistoryItem {
  return {
    classification: null,
    code: null,
    note: null,
    by: 'system:test',
    at: at(),
    status: ToolStatus.DOWN,
    recoveryAt: null,
    ...overrides,
  };
}

/** An admin pin: DOWN from T0 for an hour. */
export function aPin(overrides: Partial<Pin> = {}): Pin {
  return { status: ToolStatus.DOWN, until: at(HOUR), reason: 'planned migration', by: 'admin:ops', at: at(), ...overrides };
}

/** A maintenance window of the GLOBAL `example-tool`, scheduled at T0 for the hour after the next one. */
export function aMaintenanceWindow(overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow {
  return {
    ...aHealthKey(),
    id: '00000000-0000-4000-8000-000000000001',
    from: at(HOUR),
    until: at(2 * HOUR),
    reason: 'database upgrade',
    by: 'admin:ops',
    createdAt: at(),
    updatedAt: at(),
    cancelledAt: null,
    cancelledBy: null,
    startedEventAt: null,
    endedEventAt: null,
    version: 1,
    ...overrides,
  };
}
