import { DomainError } from './domain-error';
import { contextScopeId, validateKey } from './health-key';
import { scopeRank } from './scope';
import { CallContext, HealthKey } from './tool-health-document';

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
  /**
   * D20: every window of the call's cascade not over and not cancelled, in force or ahead (as far
   * as the snapshot reaches), so "back at" can chain windows that follow without a gap.
   * Absent in hand-built views: then inForce and upcoming are all there is.
   */
  windows?: readonly MaintenanceWindow[];
}

export const NO_MAINTENANCE: MaintenanceView = Object.freeze({ inForce: null, upcoming: null, windows: [] });

/** The windows a view knows of (see MaintenanceView.windows). */
export function windowsOf(view: MaintenanceView): readonly MaintenanceWindow[] {
  if (view.windows) return view.windows;
  return [view.inForce, view.upcoming].filter((w): w is MaintenanceWindow => w !== null);
}

export function maintenanceFor(
  windows: Iterable<MaintenanceWindow>,
  toolName: string,
  context: CallContext,
  now: Date,
  lookaheadMs: number,
): MaintenanceView {
  let inForce: MaintenanceWindow | null = null;
  let upcoming: MaintenanceWindow | null = null;
  const applying: MaintenanceWindow[] = [];
  for (const w of windows) {
    if (!appliesTo(w, toolName, context)) continue;
    const phase = phaseOf(w, now);
    if (phase === MaintenancePhase.IN_FORCE || phase === MaintenancePhase.UPCOMING) applying.push(w);
    if (isInForce(w, now)) {
      const narrower = inForce === null || scopeRank(w.scope) < scopeRank(inForce.scope);
      const sameLater = inForce !== null && w.scope === inForce.scope && w.until.getTime() > inForce.until.getTime();
      if (narrower || sameLater) inForce = w;
    } else if (isUpcoming(w, now, lookaheadMs) && (upcoming === null || w.from.getTime() < upcoming.from.getTime())) {
      upcoming = w;
    }
  }
  // Nothing in force or coming within the lookahead: nothing to show, and nothing to chain onto.
  return inForce === null && upcoming === null ? NO_MAINTENANCE : { inForce, upcoming, windows: applying };
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
