import { CascadeReason, EffectiveHealth } from './cascade';
import { formatClock } from './clock-format';
import { DomainError } from './domain-error';
import { contextScopeId, encodeKey, validateKey } from './health-key';
import { scopeRank } from './scope';
import { CallContext, HealthKey, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

/**
 * Issue 16: a planned outage of one tool at one key (scope, scopeId, tool), scheduled by an admin.
 * In force it reads as DOWN with `expectedRecoveryAt = until` (reason MAINTENANCE); before it
 * starts, lookups and the annotation can show it coming. It is an overlay like a pin (D4b):
 * nothing stored in tool_health changes, so when it ends the stored evidence applies again.
 */
export interface MaintenanceWindow extends HealthKey {
  id: string;
  from: Date;
  until: Date;
  reason: string;
  /** "admin:<key name>" of the scheduling admin. */
  by: string;
  createdAt: Date;
  updatedAt: Date;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  /** When this service recorded the start / end event (P77); null = not yet. */
  startedEventAt: Date | null;
  endedEventAt: Date | null;
  version: number;
}

export enum MaintenancePhase {
  UPCOMING = 'UPCOMING',
  IN_FORCE = 'IN_FORCE',
  ENDED = 'ENDED',
  CANCELLED = 'CANCELLED',
}

export const MAX_MAINTENANCE_REASON_LENGTH = 500;
/** Longer outages are not "maintenance": a pin (D4b) or a verdict says that. */
export const MAX_MAINTENANCE_DURATION_MS = 31 * 24 * 3_600_000;

export function phaseOf(window: MaintenanceWindow, now: Date): MaintenancePhase {
  if (window.cancelledAt) return MaintenancePhase.CANCELLED;
  const t = now.getTime();
  if (t < window.from.getTime()) return MaintenancePhase.UPCOMING;
  if (t < window.until.getTime()) return MaintenancePhase.IN_FORCE;
  return MaintenancePhase.ENDED;
}

export function isInForce(window: MaintenanceWindow, now: Date): boolean {
  return phaseOf(window, now) === MaintenancePhase.IN_FORCE;
}

/** Not yet started and starting within `lookaheadMs` (MAINTENANCE_LOOKAHEAD_MS). */
export function isUpcoming(window: MaintenanceWindow, now: Date, lookaheadMs: number): boolean {
  return phaseOf(window, now) === MaintenancePhase.UPCOMING && window.from.getTime() - now.getTime() <= lookaheadMs;
}

/** A window governs a call when its key is one of the call's cascade keys (§4). */
export function appliesTo(window: MaintenanceWindow, toolName: string, context: CallContext): boolean {
  if (window.toolName !== toolName) return false;
  const scopeId = contextScopeId(window.scope, context);
  return scopeId !== undefined && scopeId === window.scopeId;
}

/** What the windows say about one tool in one context at one instant. */
export interface MaintenanceView {
  /** The narrowest window in force (of equals, the one ending last). */
  inForce: MaintenanceWindow | null;
  /** The next window to start within the lookahead (any scope of the cascade). */
  upcoming: MaintenanceWindow | null;
}

export const NO_MAINTENANCE: MaintenanceView = Object.freeze({ inForce: null, upcoming: null });

export function maintenanceFor(
  windows: Iterable<MaintenanceWindow>,
  toolName: string,
  context: CallContext,
  now: Date,
  lookaheadMs: number,
): MaintenanceView {
  let inForce: MaintenanceWindow | null = null;
  let upcoming: MaintenanceWindow | null = null;
  for (const w of windows) {
    if (!appliesTo(w, toolName, context)) continue;
    if (isInForce(w, now)) {
      const narrower = inForce === null || scopeRank(w.scope) < scopeRank(inForce.scope);
      const sameLater = inForce !== null && w.scope === inForce.scope && w.until.getTime() > inForce.until.getTime();
      if (narrower || sameLater) inForce = w;
    } else if (isUpcoming(w, now, lookaheadMs) && (upcoming === null || w.from.getTime() < upcoming.from.getTime())) {
      upcoming = w;
    }
  }
  return inForce === null && upcoming === null ? NO_MAINTENANCE : { inForce, upcoming };
}

/**
 * The cascade's answer with the windows laid over it. A window in force acts as a DOWN entry at
 * its own scope that beats every stored entry at that scope or wider; a narrower decisive entry
 * (a pin, or a live problem) still wins, as D4/D4b have narrower entries win. The winner is the
 * window rendered as an entry (version 0: never stored), so traces and the failure check read
 * `until` as `expectedRecoveryAt` like any other estimate.
 */
export function withMaintenance(effective: EffectiveHealth, view: MaintenanceView | null | undefined, now: Date): EffectiveHealth {
  if (!view || view === NO_MAINTENANCE) return effective;
  const window = view.inForce;
  const decisive = effective.reason === CascadeReason.PINNED || effective.reason === CascadeReason.LIVE_PROBLEM;
  if (!window || (decisive && effective.winner && scopeRank(effective.winner.scope) < scopeRank(window.scope))) {
    return { ...effective, maintenance: view };
  }
  const rank = scopeRank(window.scope);
  return {
    toolName: effective.toolName,
    status: ToolStatus.DOWN,
    retesting: false,
    reason: CascadeReason.MAINTENANCE,
    winner: windowAsEntry(window, now),
    considered: effective.considered,
    shadowed: effective.considered.filter(
      (doc) =>
        scopeRank(doc.scope) >= rank && (doc.status !== ToolStatus.OK || (doc.pin !== null && doc.pin.until.getTime() > now.getTime())),
    ),
    maintenance: view,
  };
}

export function windowAsEntry(window: MaintenanceWindow, now: Date): ToolHealthDocument {
  const key = { scope: window.scope, scopeId: window.scopeId, toolName: window.toolName };
  return {
    ...key,
    id: encodeKey(key),
    tenantId: null,
    status: ToolStatus.DOWN,
    since: window.from,
    lastCheckedAt: null,
    expectedRecoveryAt: window.until,
    code: null,
    lastFailureAt: null,
    lastDiagnosis: { classification: null, code: null, note: `maintenance: ${window.reason}`, by: window.by, at: window.updatedAt },
    history: [],
    cooldowns: [],
    pin: null,
    description: null,
    version: 0,
    createdAt: window.createdAt,
    updatedAt: now,
  };
}

/**
 * The annotation's suffix with the windows (§9 + issue 16): in force, "under maintenance —
 * expected back at HH:MM"; coming, the stored status's own suffix (or none) followed by
 * "maintenance planned HH:MM–HH:MM". `stored` is the suffix without windows.
 */
export function maintenanceSuffix(effective: EffectiveHealth, now: Date, timeZone: string, stored: string | null): string | null {
  const view = effective.maintenance;
  if (effective.reason === CascadeReason.MAINTENANCE && view?.inForce) {
    return `under maintenance — expected back at ${formatClock(view.inForce.until, now, timeZone)}`;
  }
  const range = plannedRange(effective, now, timeZone);
  if (range === null) return stored;
  const planned = `maintenance planned ${range}`;
  return stored === null ? planned : `${stored}; ${planned}`;
}

/** "HH:MM–HH:MM" of the window coming within the lookahead, else null (P75; P78 rendering). */
export function plannedRange(effective: EffectiveHealth, now: Date, timeZone: string): string | null {
  const upcoming = effective.maintenance?.upcoming;
  if (!upcoming) return null;
  return `${formatClock(upcoming.from, now, timeZone)}–${formatClock(upcoming.until, now, timeZone)}`;
}

// ---- writes (pure): schedule, change, cancel ---------------------------------------------------

export interface ScheduleRequest {
  scope: unknown;
  scopeId?: unknown;
  toolName: unknown;
  from: Date;
  until: Date;
  reason: string;
}

/** Absent or null: unchanged (P24: callers in many languages send null for "not given"). */
export interface ChangeRequest {
  from?: Date | null;
  until?: Date | null;
  reason?: string | null;
}

function checkTimes(from: Date, until: Date, now: Date): void {
  if (!(from instanceof Date) || Number.isNaN(from.getTime())) throw DomainError.invalid('from', 'must be a date-time');
  if (!(until instanceof Date) || Number.isNaN(until.getTime())) throw DomainError.invalid('until', 'must be a date-time');
  if (until.getTime() <= from.getTime()) throw DomainError.invalid('until', 'must be after from');
  if (until.getTime() <= now.getTime()) throw DomainError.invalid('until', 'must be in the future');
  if (until.getTime() - from.getTime() > MAX_MAINTENANCE_DURATION_MS) {
    throw DomainError.invalid('until', 'a window lasts at most 31 days (pin the entry for longer outages)');
  }
}

function checkReason(reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim() === '') throw DomainError.invalid('reason', 'must be a non-empty string');
  if (reason.length > MAX_MAINTENANCE_REASON_LENGTH)
    throw DomainError.invalid('reason', `must be at most ${MAX_MAINTENANCE_REASON_LENGTH} characters`);
  return reason;
}

export function scheduleWindow(request: ScheduleRequest, id: string, by: string, now: Date): MaintenanceWindow {
  const key = validateKey(request);
  checkTimes(request.from, request.until, now);
  return {
    ...key,
    id,
    from: request.from,
    until: request.until,
    reason: checkReason(request.reason),
    by,
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
    cancelledBy: null,
    startedEventAt: null,
    endedEventAt: null,
    version: 1,
  };
}

/**
 * A window can be changed until it ends. Once in force its start is history: only `until`
 * (to extend or shorten it, not into the past) and the reason may change.
 */
export function changeWindow(window: MaintenanceWindow, change: ChangeRequest, by: string, now: Date): MaintenanceWindow {
  const phase = phaseOf(window, now);
  if (phase === MaintenancePhase.CANCELLED || phase === MaintenancePhase.ENDED) {
    throw DomainError.conflict(`maintenance window ${window.id} is ${phase.toLowerCase()}; schedule a new one`);
  }
  if (change.from != null && phase === MaintenancePhase.IN_FORCE && change.from.getTime() !== window.from.getTime()) {
    throw DomainError.conflict(`maintenance window ${window.id} is in force: its start cannot change (change until, or cancel it)`);
  }
  const from = change.from ?? window.from;
  const until = change.until ?? window.until;
  checkTimes(from, until, now);
  const reason = change.reason == null ? window.reason : checkReason(change.reason);
  return { ...window, from, until, reason, by, updatedAt: now, version: window.version + 1 };
}

export function cancelWindow(window: MaintenanceWindow, by: string, now: Date): MaintenanceWindow {
  const phase = phaseOf(window, now);
  if (phase === MaintenancePhase.CANCELLED || phase === MaintenancePhase.ENDED) {
    throw DomainError.conflict(`maintenance window ${window.id} is ${phase.toLowerCase()}`);
  }
  return { ...window, cancelledAt: now, cancelledBy: by, updatedAt: now, version: window.version + 1 };
}

/** The events a window owes at `now` (P77): its start once it began, its end once it ended or was cancelled after it began. */
export function dueEvents(window: MaintenanceWindow, now: Date): { start: boolean; end: boolean } {
  const began = window.from.getTime() <= now.getTime() && (!window.cancelledAt || window.cancelledAt.getTime() > window.from.getTime());
  const start = window.startedEventAt === null && began;
  const over = window.cancelledAt !== null || window.until.getTime() <= now.getTime();
  const end = window.endedEventAt === null && over && (began || window.startedEventAt !== null);
  return { start, end };
}

// ---- events (P77) -------------------------------------------------------------------------------

export interface MaintenancePayload {
  windowId: string;
  from: Date;
  until: Date;
  reason: string;
  by: string;
  /** Set on an end caused by cancellation. */
  cancelledAt: Date | null;
}

export function maintenancePayload(window: MaintenanceWindow): MaintenancePayload {
  return {
    windowId: window.id,
    from: window.from,
    until: window.until,
    reason: window.reason,
    by: window.by,
    cancelledAt: window.cancelledAt,
  };
}
