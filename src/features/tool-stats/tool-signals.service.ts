import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import {
  HOUR_MS,
  MINUTE_MS,
  OutcomeTally,
  StatsResolution,
  emptyTally,
  floorTo,
  mergeInto,
  subtractTally,
} from '../../domain/outcome-stats';
import {
  DEFAULT_SIGNAL_SETTINGS,
  SignalChange,
  SignalSettings,
  ToolSignals,
  evaluateSignals,
  hasSignal,
  signalChanges,
} from '../../domain/tool-signals';
import { OutcomeStatsRepository } from '../../persistence/outcome-stats/outcome-stats.repository';
import { Clock } from '../../runtime/clock';
import { OutcomeStatsRecorder } from './outcome-stats-recorder.service';

/** The usual values are re-read at least this often (and whenever the hour changes). */
const BASELINE_MAX_AGE_MS = 10 * MINUTE_MS;

export interface ToolSignalChange extends SignalChange {
  toolName: string;
  signals: ToolSignals;
  at: Date;
}

/** What a refresh saw of one tool: its recent and usual counts (kept for the tools /metrics shows). */
export interface RecentAndUsual {
  recent: OutcomeTally;
  usual: OutcomeTally;
}

/**
 * Issue 39: the signals of every tool at GLOBAL, held in memory and re-read every
 * STATS_SIGNAL_REFRESH_MS, so the readers that show them — the annotation on every turn above
 * all — pay a map lookup, never a database read (P303).
 *
 * A refresh reads the GLOBAL hour documents: the complete hours of the last day ("usual", re-read
 * when the hour changes or after ten minutes) and the current and previous hour with their
 * minutes ("recent": the last STATS_RECENT_MINUTES minutes), adds what this instance counted and
 * has not flushed yet, and judges each tool seen recently or signalled before (tool-signals.ts).
 * The usual period leaves the recent minutes out, so a tool's new trouble is not half its own
 * baseline. Every instance judges the same stored counts, so they agree to within a refresh.
 */
@Injectable()
export class ToolSignalsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ToolSignalsService.name);
  /** Only the tools with a signal on. */
  private signals = new Map<string, ToolSignals>();
  private baseline: { hourStartMs: number; readAtMs: number; byTool: Map<string, OutcomeTally> } | null = null;
  private watchedCounts = new Map<string, RecentAndUsual>();
  private refreshing: Promise<ToolSignalChange[]> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly settings: SignalSettings;
  private readonly listeners: ((changes: ToolSignalChange[]) => Promise<void>)[] = [];
  lastRefreshAt: Date | null = null;
  /** The first refresh after start only learns what is on: an instance that restarts does not announce every signal again (P305). */
  private seeded = false;

  constructor(
    private readonly repository: OutcomeStatsRepository,
    private readonly recorder: OutcomeStatsRecorder,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.settings = { ...DEFAULT_SIGNAL_SETTINGS, minCalls: config.statsMinCalls };
  }

  onModuleInit(): void {
    if (this.config.statsSignalRefreshMs > 0) {
      this.timer = setInterval(
        () => void this.refresh().catch((e) => this.logger.warn(`signal refresh failed: ${(e as Error).message}`)),
        this.config.statsSignalRefreshMs,
      );
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** The signals on for a tool (GLOBAL) at the last refresh; null when none. A map lookup: the annotation's hot path. */
  signalsFor(toolName: string): ToolSignals | null {
    return this.signals.size === 0 ? null : (this.signals.get(toolName) ?? null);
  }

  /** Every tool with a signal on, by name (the console's board column). */
  allSignals(): [string, ToolSignals][] {
    return [...this.signals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** How many tools have each signal on now (for /metrics). */
  signalCounts(): { failingOften: number; slow: number } {
    let failingOften = 0;
    let slow = 0;
    for (const s of this.signals.values()) {
      if (s.failingOften) failingOften++;
      if (s.slow) slow++;
    }
    return { failingOften, slow };
  }

  /** The recent and usual counts of the tools named in STATS_METRICS_TOOLS, at the last refresh. */
  watched(): ReadonlyMap<string, RecentAndUsual> {
    return this.watchedCounts;
  }

  /** Called with the signals that started or ended at each refresh (the events, P305). */
  onChanges(listener: (changes: ToolSignalChange[]) => Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Re-reads the counts and judges every tool; returns the signals that started or ended. One at a time. */
  refresh(): Promise<ToolSignalChange[]> {
    if (!this.refreshing) {
      this.refreshing = this.refreshNow().finally(() => (this.refreshing = null));
    }
    return this.refreshing;
  }

  private async refreshNow(): Promise<ToolSignalChange[]> {
    const now = this.clock.now();
    const nowMs = now.getTime();
    const hourStartMs = floorTo(nowMs, HOUR_MS);
    const recentFromMs = floorTo(nowMs, MINUTE_MS) - (this.config.statsRecentMinutes - 1) * MINUTE_MS;

    if (!this.baseline || this.baseline.hourStartMs !== hourStartMs || nowMs - this.baseline.readAtMs > BASELINE_MAX_AGE_MS) {
      const byTool = new Map<string, OutcomeTally>();
      for (const b of await this.repository.findGlobal(StatsResolution.HOUR, hourStartMs - 24 * HOUR_MS, hourStartMs, false)) {
        mergeInto(byTool.get(b.toolName) ?? byTool.set(b.toolName, emptyTally()).get(b.toolName)!, b.total);
      }
      this.baseline = { hourStartMs, readAtMs: nowMs, byTool };
    }

    // Recent minutes per tool, and the part of them that lies in the baseline's hours.
    const recent = new Map<string, OutcomeTally>();
    const recentInBaseline = new Map<string, OutcomeTally>();
    const add = (map: Map<string, OutcomeTally>, tool: string, t: OutcomeTally) =>
      mergeInto(map.get(tool) ?? map.set(tool, emptyTally()).get(tool)!, t);
    for (const b of await this.repository.findGlobal(StatsResolution.HOUR, floorTo(recentFromMs, HOUR_MS), hourStartMs + HOUR_MS, true)) {
      for (const [minute, t] of b.minutes) {
        const minuteStart = b.startMs + minute * MINUTE_MS;
        if (minuteStart < recentFromMs || minuteStart > nowMs) continue;
        add(recent, b.toolName, t);
        if (minuteStart < hourStartMs) add(recentInBaseline, b.toolName, t);
      }
    }
    for (const u of this.recorder.unflushedGlobal()) if (u.minuteStartMs >= recentFromMs) add(recent, u.toolName, u.tally);

    const next = new Map<string, ToolSignals>();
    const changes: ToolSignalChange[] = [];
    const watched = new Map<string, RecentAndUsual>();
    const tools = new Set([...recent.keys(), ...this.signals.keys()]);
    for (const toolName of tools) {
      const r = recent.get(toolName) ?? emptyTally();
      const baseline = this.baseline.byTool.get(toolName) ?? emptyTally();
      const usual = subtractTally(baseline, recentInBaseline.get(toolName) ?? emptyTally());
      const previous = this.signals.get(toolName) ?? null;
      const signals = evaluateSignals({ recent: r, usual, previous, settings: this.settings });
      if (hasSignal(signals)) next.set(toolName, signals);
      for (const change of signalChanges(previous, signals)) changes.push({ ...change, toolName, signals, at: now });
      if (this.config.statsMetricsTools.includes(toolName)) watched.set(toolName, { recent: r, usual });
    }
    this.signals = next;
    this.watchedCounts = watched;
    this.lastRefreshAt = now;
    if (changes.length > 0 && this.seeded) for (const listener of this.listeners) await listener(changes);
    this.seeded = true;
    return changes;
  }
}
