import { createHash, randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { adminActor } from '../../shapes/admin-actor';
import { Principal } from '../../auth/principal';
import { Clock } from '../../runtime/clock';
import { AppConfig } from '../../config/app-config';
import { DomainError } from '../../domain/domain-error';
import { encodeKey, validateId, validateKey } from '../../domain/health-key';
import { HealthEventType } from '../../domain/health-events';
import {
  ChangeRequest,
  MaintenanceView,
  MaintenanceWindow,
  NO_MAINTENANCE,
  ScheduleRequest,
  cancelWindow,
  changeOccurrence,
  changeWindow,
  dueEvents,
  endSeries,
  expandWindows,
  isInForce,
  isSeries,
  maintenanceFor,
  scheduleWindow,
  seriesDueEvents,
  skipOccurrence,
} from '../../domain/maintenance-window';
import { Scope } from '../../domain/scope';
import { CallContext } from '../../domain/tool-health-document';
import { ToolStatus } from '../../domain/tool-status';
import { EventRelay } from '../../write-path/event-relay.service';
import { EventScopeStatus } from '../../write-path/event-scope-status';
import { MaintenanceWindowRepository } from '../../persistence/maintenance-windows/maintenance-window.repository';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { CalendarExpansions } from './calendar-expansions';
import { calendarText } from './maintenance-calendar';
import { maintenanceEvent } from './maintenance-events';

/**
 * A snapshot read at service time T holds the windows with `until > T - margin` and
 * `from <= T + lookahead + margin`, so it answers exactly for any call at T ± margin.
 */
const MARGIN_MS = 3_600_000;
const MAX_LIST = 500;
const EVENT_BATCH = 200;
const MAX_WRITE_ATTEMPTS = 8;
/** How far ahead the iCalendar feed looks, and how many events it lists at most (P194). */
const CALENDAR_DAYS = 60;
const MAX_CALENDAR_EVENTS = 1_000;

interface Snapshot {
  /** The service clock's now at the read. */
  now: number;
  byTool: Map<string, MaintenanceWindow[]>;
}

/** One tool's windows in one context at `now`, from a snapshot. */
function viewIn(snapshot: Snapshot, toolName: string, context: CallContext, now: Date, lookahead: number): MaintenanceView {
  const windows = snapshot.byTool.get(toolName);
  return windows ? maintenanceFor(windows, toolName, context, now, lookahead) : NO_MAINTENANCE;
}

/**
 * Issue 16: maintenance windows. Writes go to maintenance_windows; calls read them from a
 * per-instance snapshot of every window not yet over (P75), re-read every MAINTENANCE_CACHE_MS
 * by a timer and at once after this instance's own writes, so a call never waits for it (the
 * dispatcher's clean success stays one read). Another instance's change shows within that
 * interval; whether a window is in force is judged per call against the clock, so starts and
 * ends are exact on every instance. MAINTENANCE_CACHE_MS=0 reads on every call instead.
 */
@Injectable()
export class MaintenanceService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MaintenanceService.name);
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private refresher: NodeJS.Timeout | undefined;
  private readonly expansions = new CalendarExpansions(CALENDAR_DAYS, MAX_CALENDAR_EVENTS);

  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly relay: EventRelay,
    private readonly health: ToolHealthRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly eventScopeStatus: EventScopeStatus,
  ) {}

  async onModuleInit(): Promise<void> {
    // Events are given the windows lookups on this instance see (D27).
    this.eventScopeStatus.readMaintenanceWith((at) => this.viewsAt(at));
    if (this.config.maintenanceCacheMs > 0) {
      await this.load(this.clock.now()).catch((e) => this.logger.warn(`maintenance windows not read: ${(e as Error).message}`));
      this.refresher = setInterval(
        () => void this.load(this.clock.now()).catch((e) => this.logger.warn(`maintenance windows not read: ${(e as Error).message}`)),
        this.config.maintenanceCacheMs,
      );
      this.refresher.unref();
    }
    if (this.config.maintenanceTickMs > 0) {
      this.timer = setInterval(
        () => void this.emitDueEvents().catch((e) => this.logger.warn(`maintenance events failed: ${(e as Error).message}`)),
        this.config.maintenanceTickMs,
      );
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    clearInterval(this.refresher);
  }

  // ---- the read path ----------------------------------------------------------------------------

  /** The windows of one tool in one context at `now` (no read while the snapshot is fresh). */
  async viewFor(toolName: string, context: CallContext, now: Date): Promise<MaintenanceView> {
    return (await this.viewsAt(now))(toolName, context);
  }

  /**
   * viewFor's answer without waiting when the snapshot covers `now` (it nearly always does), else
   * null: a batch's items are many reports in a row, and waiting on a ready answer cost each of
   * them a chain of promises (P347).
   */
  viewIfFresh(toolName: string, context: CallContext, now: Date): MaintenanceView | null {
    const snapshot = this.fresh(now);
    return snapshot ? viewIn(snapshot, toolName, context, now, this.config.maintenanceLookaheadMs) : null;
  }

  async viewsFor(toolNames: readonly string[], context: CallContext, now: Date): Promise<MaintenanceView[]> {
    const viewOf = await this.viewsAt(now);
    return toolNames.map((name) => viewOf(name, context));
  }

  /**
   * The windows at `now` as a function of (tool, context), from one snapshot: for a caller that
   * learns which tools it needs only after its own read (the manifest's departed tools, P102).
   */
  async viewsAt(now: Date): Promise<(toolName: string, context: CallContext) => MaintenanceView> {
    const snapshot = await this.current(now);
    const lookahead = this.config.maintenanceLookaheadMs;
    return (toolName, context) => viewIn(snapshot, toolName, context, now, lookahead);
  }

  /** The snapshot when it covers `now`, else a read. */
  private current(now: Date): Snapshot | Promise<Snapshot> {
    return this.fresh(now) ?? this.load(now);
  }

  /** The snapshot when it covers `now` (a clock moved far, in tests, reads again), else null: a read is due. */
  private fresh(now: Date): Snapshot | null {
    const s = this.snapshot;
    return s && this.config.maintenanceCacheMs > 0 && Math.abs(now.getTime() - s.now) <= MARGIN_MS ? s : null;
  }

  /** Concurrent callers share one read. */
  private load(now: Date): Promise<Snapshot> {
    return (this.loading ??= this.read(now).finally(() => (this.loading = null)));
  }

  private async read(now: Date): Promise<Snapshot> {
    const t = now.getTime();
    const start = new Date(t - MARGIN_MS);
    const horizon = new Date(t + this.config.maintenanceLookaheadMs + MARGIN_MS);
    const found = await this.windows.findCurrent(start, horizon);
    const byTool = new Map<string, MaintenanceWindow[]>();
    // A series enters the snapshot as its occurrences over the span the snapshot answers for (P190).
    for (const w of expandWindows(found, start, horizon)) {
      const list = byTool.get(w.toolName);
      if (list) list.push(w);
      else byTool.set(w.toolName, [w]);
    }
    const snapshot = { now: t, byTool };
    this.snapshot = snapshot;
    return snapshot;
  }

  /**
   * The windows in force or starting within CALENDAR_DAYS, series expanded, as an iCalendar text
   * (P194), with what a conditional request is answered by (P227): a weak ETag over the events
   * (not the DTSTAMP, which is the moment of the answer) and the instant the content last changed.
   */
  async calendar(): Promise<{ text: string; etag: string; lastModified: Date }> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + CALENDAR_DAYS * 86_400_000);
    const current = await this.windows.findCurrent(now, until);
    const { events, lastModified } = this.expansions.feed(current, now, until, MAX_CALENDAR_EVENTS);
    const digest = createHash('sha256');
    for (const e of events) digest.update(e.head).update(e.tail);
    return {
      text: calendarText(events, now),
      etag: `W/"${digest.digest('base64url').slice(0, 27)}"`,
      lastModified: new Date(lastModified),
    };
  }

  /** P193 (`/metrics`): how many windows (one-off or occurrences) are in force at `now`, across all tools. */
  async inForceCount(now: Date): Promise<number> {
    const snapshot = await this.current(now);
    let count = 0;
    for (const windows of snapshot.byTool.values()) for (const w of windows) if (isInForce(w, now)) count++;
    return count;
  }

  /**
   * Reads the windows again now (after any read in flight, which may predate it): after this
   * instance's own write, or when the database changed under it (a test that empties it).
   */
  async refresh(): Promise<void> {
    await this.loading?.catch(() => undefined);
    await this.load(this.clock.now());
  }

  // ---- admin writes -----------------------------------------------------------------------------

  async schedule(request: ScheduleRequest, principal: Principal): Promise<MaintenanceWindow> {
    const window = scheduleWindow(request, randomUUID(), adminActor(principal), this.clock.now());
    await this.windows.insert(window);
    await this.refresh();
    this.logger.log(`maintenance ${window.id} scheduled for ${window.scope} ${window.scopeId ?? ''} ${window.toolName} by ${window.by}`);
    return window;
  }

  async get(id: string): Promise<MaintenanceWindow> {
    const window = await this.windows.findById(validateId('id', id));
    if (!window) throw DomainError.notFound(`no maintenance window ${id}`);
    return window;
  }

  async list(filter: {
    toolName?: string;
    scope?: Scope;
    scopeId?: string | null;
    includeEnded?: boolean;
    limit?: number;
  }): Promise<MaintenanceWindow[]> {
    if (filter.toolName !== undefined) validateId('toolName', filter.toolName);
    if (filter.scope !== undefined && filter.scopeId !== undefined)
      validateKey({ scope: filter.scope, scopeId: filter.scopeId, toolName: filter.toolName ?? 'x' });
    return this.windows.list({
      toolName: filter.toolName,
      scope: filter.scope,
      scopeId: filter.scope === Scope.GLOBAL ? null : filter.scopeId,
      includeEnded: filter.includeEnded ?? false,
      now: this.clock.now(),
      limit: Math.min(filter.limit ?? MAX_LIST, MAX_LIST),
    });
  }

  change(id: string, change: ChangeRequest, principal: Principal): Promise<MaintenanceWindow> {
    return this.rewrite(id, (w, now) => changeWindow(w, change, adminActor(principal), now));
  }

  /** Skips one occurrence of a series (named by the start the rule gives it) (P191). */
  skipOccurrence(id: string, occurrence: Date, principal: Principal): Promise<MaintenanceWindow> {
    return this.rewrite(id, (w, now) => skipOccurrence(w, occurrence, adminActor(principal), now));
  }

  /** Changes one occurrence of a series alone (P191). */
  changeOccurrence(id: string, occurrence: Date, change: ChangeRequest, principal: Principal): Promise<MaintenanceWindow> {
    return this.rewrite(id, (w, now) => changeOccurrence(w, occurrence, change, adminActor(principal), now));
  }

  /** Ends a series at `at` (default now): no occurrence starts from then on (P191). */
  endSeries(id: string, at: Date | null, principal: Principal): Promise<MaintenanceWindow> {
    return this.rewrite(id, (w, now) => endSeries(w, at, adminActor(principal), now));
  }

  /** A window cancelled while in force ends now (its end event follows, P77); one not begun never starts. */
  async cancel(id: string, principal: Principal): Promise<MaintenanceWindow> {
    const cancelled = await this.rewrite(id, (w, now) => cancelWindow(w, adminActor(principal), now));
    await this.emitDueEvents();
    return cancelled;
  }

  /** Load, apply the pure change, replace guarded by version, retry on a lost race (like D3). */
  private async rewrite(id: string, apply: (w: MaintenanceWindow, now: Date) => MaintenanceWindow): Promise<MaintenanceWindow> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.get(id);
      const next = apply(current, this.clock.now());
      if (await this.windows.replace(next, current.version)) {
        await this.refresh();
        return next;
      }
    }
    throw DomainError.conflict(`too many concurrent changes to maintenance window ${id}; retry`);
  }

  // ---- events (P77) -----------------------------------------------------------------------------

  /**
   * Writes the start and end events windows owe at the clock's now, then marks them. At least
   * once: a crash between the two writes the same event ids again, which the outbox ignores.
   * Runs on a timer (MAINTENANCE_TICK_MS) on every instance; returns how many it wrote.
   */
  async emitDueEvents(): Promise<number> {
    const now = this.clock.now();
    const lead = this.config.maintenanceWarningLeadMs;
    let written = 0;
    for (const window of await this.windows.findOwingEvents(now, EVENT_BATCH, lead)) {
      if (isSeries(window)) {
        written += await this.emitSeriesEvents(window, now, lead);
        continue;
      }
      const due = dueEvents(window, now, lead);
      if (due.warn) {
        await this.emit(maintenanceEvent(HealthEventType.MAINTENANCE_STARTING, window, await this.storedStatus(window), now));
        await this.windows.markEvents(window.id, { warnedEventAt: now, eventsDone: false });
        written++;
      }
      if (due.start) {
        await this.emit(maintenanceEvent(HealthEventType.MAINTENANCE_STARTED, window, ToolStatus.DOWN, now));
        written++;
      }
      if (due.end) {
        // What reads once the window is gone: the stored status of the key it covered.
        const stored = await this.health.findById(encodeKey(window));
        // Outbox positions sort by instant, then id: an end written in the same tick as its start
        // is stamped 1 ms later so a cursor reader sees the start first.
        const endAt = due.start ? new Date(now.getTime() + 1) : now;
        await this.emit(maintenanceEvent(HealthEventType.MAINTENANCE_ENDED, window, stored?.status ?? ToolStatus.OK, endAt));
        written++;
      }
      const ended =
        due.end || window.endedEventAt !== null || (window.cancelledAt !== null && !due.start && window.startedEventAt === null);
      await this.windows.markEvents(window.id, {
        startedEventAt: due.start ? now : undefined,
        endedEventAt: due.end ? now : undefined,
        eventsDone: ended,
      });
    }
    return written;
  }

  /**
   * A series' owed events, per occurrence, then its bookkeeping (compare-and-set on
   * eventsThrough) (P192). Within one tick an occurrence's end follows its start by 1 ms, as above.
   */
  private async emitSeriesEvents(series: MaintenanceWindow, now: Date, lead: number): Promise<number> {
    const due = seriesDueEvents(series, now, lead);
    const started = new Set<string>();
    for (const { kind, occurrence } of due.events) {
      if (kind === 'STARTING') {
        await this.emit(maintenanceEvent(HealthEventType.MAINTENANCE_STARTING, occurrence, await this.storedStatus(occurrence), now));
      } else if (kind === 'STARTED') {
        await this.emit(maintenanceEvent(HealthEventType.MAINTENANCE_STARTED, occurrence, ToolStatus.DOWN, now));
        started.add(occurrence.id);
      } else {
        const endAt = started.has(occurrence.id) ? new Date(now.getTime() + 1) : now;
        await this.emit(maintenanceEvent(HealthEventType.MAINTENANCE_ENDED, occurrence, await this.storedStatus(occurrence), endAt));
      }
    }
    await this.windows.markSeriesEvents(series.id, series.eventsThrough ?? null, {
      eventsThrough: due.eventsThrough,
      eventMarks: due.eventMarks,
      eventsDone: due.done,
    });
    return due.events.length;
  }

  /** What reads at the window's key without it: the stored status there (OK when nothing is stored). */
  private async storedStatus(window: MaintenanceWindow): Promise<ToolStatus> {
    return (await this.health.findById(encodeKey(window)))?.status ?? ToolStatus.OK;
  }

  /** The one call into the event mechanism (P53: the relay positions every event). */
  private emit(event: ReturnType<typeof maintenanceEvent>): Promise<void> {
    return this.relay.publish([event]);
  }
}
