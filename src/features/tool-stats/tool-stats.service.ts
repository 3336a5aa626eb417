import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DomainError } from '../../domain/domain-error';
import { encodeKey, validateId } from '../../domain/health-key';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  OutcomeTally,
  StatsResolution,
  emptyTally,
  floorTo,
  judgedCalls,
  mergeInto,
  mergeTallies,
  percentile,
  statsBucketId,
  successRate,
} from '../../domain/outcome-stats';
import { Scope } from '../../domain/scope';
import { uptimeDays } from '../../domain/uptime';
import { MaintenanceWindowRepository } from '../../persistence/maintenance-windows/maintenance-window.repository';
import { OutcomeStatsRepository } from '../../persistence/outcome-stats/outcome-stats.repository';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { Clock } from '../../runtime/clock';
import { ToolSignalsService } from './tool-signals.service';
import {
  ToolSignalsEntryView,
  ToolStatsView,
  ToolUptimeView,
  toCallStatsView,
  toSignalsView,
  toUptimeDayView,
  wholeMs,
} from './tool-stats.view';

export const MAX_UPTIME_DAYS = 90;
export const DEFAULT_UPTIME_DAYS = 30;
/** The windows of one tool read for its uptime: far more than 90 days of any sane schedule. */
const MAX_WINDOWS = 500;

/** Issue 39: the readers of the statistics — a tool's last hour and day, and its uptime per day. */
@Injectable()
export class ToolStatsService {
  constructor(
    private readonly stats: OutcomeStatsRepository,
    private readonly health: ToolHealthRepository,
    private readonly windows: MaintenanceWindowRepository,
    private readonly signals: ToolSignalsService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The last hour (by minute) and the last 24 hours (by hour) of a tool, for one tenant or everyone; two `_id` reads. */
  async toolStats(toolName: string, tenantId: string | null | undefined): Promise<ToolStatsView> {
    const tool = validateId('toolName', toolName);
    const tenant = tenantId === undefined || tenantId === null ? null : validateId('tenantId', tenantId);
    const now = this.clock.now();
    const nowMs = now.getTime();
    const hourStart = floorTo(nowMs, HOUR_MS);
    const starts = Array.from({ length: 24 }, (_, i) => hourStart - (23 - i) * HOUR_MS);
    const idOf = (start: number) => statsBucketId(StatsResolution.HOUR, tool, tenant, start);
    const [older, recent] = await Promise.all([
      this.stats.findByIds(starts.slice(0, 22).map(idOf), false),
      this.stats.findByIds(starts.slice(22).map(idOf), true),
    ]);
    const byStart = new Map([...older, ...recent].map((b) => [b.startMs, b]));
    const hourFrom = floorTo(nowMs, MINUTE_MS) - 59 * MINUTE_MS;
    const lastHour = emptyTally();
    for (const b of recent) for (const [minute, t] of b.minutes) if (b.startMs + minute * MINUTE_MS >= hourFrom) mergeInto(lastHour, t);
    const hours = starts.map((start) => {
      const t = byStart.get(start)?.total ?? emptyTally();
      return { start: new Date(start), calls: judgedCalls(t), successRate: successRate(t), p95Ms: wholeMs(percentile(t, 0.95)) };
    });
    return {
      toolName: tool,
      tenantId: tenant,
      lastHour: toCallStatsView(lastHour),
      lastDay: toCallStatsView(mergeTallies([...byStart.values()].map((b) => b.total))),
      hours,
      signals: tenant === null ? toSignalsView(this.signals.signalsFor(tool)) : null,
      asOf: now,
    };
  }

  /** Every tool with a signal on now (GLOBAL), from this instance's snapshot: no read. */
  toolSignals(): ToolSignalsEntryView[] {
    return this.signals.allSignals().map(([toolName, signals]) => ({ toolName, signals: toSignalsView(signals)! }));
  }

  /** Per UTC day at GLOBAL: usable time (status history, pins, maintenance apart) and the calls; three reads. */
  async uptime(toolName: string, days: number | null | undefined): Promise<ToolUptimeView> {
    const tool = validateId('toolName', toolName);
    const count = days ?? DEFAULT_UPTIME_DAYS;
    if (!Number.isInteger(count) || count < 1 || count > MAX_UPTIME_DAYS)
      throw DomainError.invalid('days', `must be an integer from 1 to ${MAX_UPTIME_DAYS}`);
    const now = this.clock.now();
    const today = floorTo(now.getTime(), DAY_MS);
    const dayStarts = Array.from({ length: count }, (_, i) => today - (count - 1 - i) * DAY_MS);
    const [doc, windows, buckets] = await Promise.all([
      this.health.findById(encodeKey({ scope: Scope.GLOBAL, scopeId: null, toolName: tool })),
      this.windows.list({ toolName: tool, scope: Scope.GLOBAL, scopeId: null, includeEnded: true, now, limit: MAX_WINDOWS }),
      this.stats.findByIds(
        dayStarts.map((d) => statsBucketId(StatsResolution.DAY, tool, null, d)),
        false,
      ),
    ]);
    const dayStats = new Map<number, OutcomeTally>(buckets.map((b) => [b.startMs, b.total]));
    // GLOBAL documents are written with the default history limit (D18).
    const result = uptimeDays({ doc, historyLimit: this.config.historyLimitDefault, windows, dayStats, days: count, now });
    let usable = 0;
    let down = 0;
    for (const d of result) {
      const elapsed = Math.min(DAY_MS, now.getTime() - d.start.getTime());
      usable += d.usable * elapsed;
      down += d.down * elapsed;
    }
    const all = mergeTallies(buckets.map((b) => b.total));
    return {
      toolName: tool,
      days: result.map(toUptimeDayView),
      uptime: usable + down === 0 ? null : usable / (usable + down),
      successRate: successRate(all),
    };
  }
}
