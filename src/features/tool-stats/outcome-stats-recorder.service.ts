import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DAY_MS, MINUTE_MS, OutcomeTally, bucketOf, emptyTally, floorTo } from '../../domain/outcome-stats';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { OutcomeStatsRepository, StatsIncrement, StatsRetention } from '../../persistence/outcome-stats/outcome-stats.repository';
import { OutcomeStatsTotals } from '../../metrics/metrics.service';

/** Hour documents (with their minutes) are kept 3 days: the signals read the last day, the console the last 24 hours. */
export const STATS_RETENTION: StatsRetention = { hourMs: 3 * DAY_MS, dayMs: 100 * DAY_MS };

/** Sealed minutes kept for a flush while the database is away; older ones are dropped (and counted). */
const MAX_PENDING_MINUTES = 5;

const CODES = Object.values(ToolErrorCode);

/** Bucket and count packed in one small integer: count × 64 + bucket (45 buckets fit in 6 bits). */
const PACK = 64;

/**
 * One key's counts in memory, kept small because there may be a quarter of a million of them
 * (P302): plain numbers in the object itself — failures by code in four fields, the first four
 * distinct latency buckets as packed (bucket, count) integers — and an array only for a fifth
 * bucket and more, which a key rarely sees within one interval. No array or object per key
 * otherwise: V8 gives a new array room for 16 more elements, ten times what a key needs.
 */
class Cell {
  ok = 0;
  fail = 0;
  timed = 0;
  sumMs = 0;
  c0 = 0;
  c1 = 0;
  c2 = 0;
  c3 = 0;
  b0 = -1;
  b1 = -1;
  b2 = -1;
  b3 = -1;
  more: number[] | null = null;

  add(ok: boolean, code: ToolErrorCode | undefined, durationMs: number | undefined | null): void {
    if (ok) this.ok++;
    else {
      this.fail++;
      if (code === CODES[0]) this.c0++;
      else if (code === CODES[1]) this.c1++;
      else if (code === CODES[2]) this.c2++;
      else if (code === CODES[3]) this.c3++;
    }
    if (durationMs === undefined || durationMs === null) return;
    this.timed++;
    this.sumMs += durationMs;
    const bucket = bucketOf(durationMs);
    if (this.b0 < 0 || this.b0 % PACK === bucket) this.b0 = this.b0 < 0 ? PACK + bucket : this.b0 + PACK;
    else if (this.b1 < 0 || this.b1 % PACK === bucket) this.b1 = this.b1 < 0 ? PACK + bucket : this.b1 + PACK;
    else if (this.b2 < 0 || this.b2 % PACK === bucket) this.b2 = this.b2 < 0 ? PACK + bucket : this.b2 + PACK;
    else if (this.b3 < 0 || this.b3 % PACK === bucket) this.b3 = this.b3 < 0 ? PACK + bucket : this.b3 + PACK;
    else {
      const more = (this.more ??= []);
      const i = more.findIndex((b) => b % PACK === bucket);
      if (i >= 0) more[i] += PACK;
      else more.push(PACK + bucket);
    }
  }

  tally(): OutcomeTally {
    const t = emptyTally();
    t.ok = this.ok;
    t.fail = this.fail;
    t.timed = this.timed;
    t.sumMs = this.sumMs;
    const codes = [this.c0, this.c1, this.c2, this.c3];
    codes.forEach((n, i) => n > 0 && (t.codes[CODES[i]] = n));
    for (const packed of [this.b0, this.b1, this.b2, this.b3, ...(this.more ?? [])]) {
      if (packed >= 0) t.hist[packed % PACK] = Math.floor(packed / PACK);
    }
    return t;
  }
}

interface ToolCells {
  global: Cell;
  tenants: Map<string, Cell> | null;
}

/** One minute's counts of one instance. */
class Minute {
  readonly tools = new Map<string, ToolCells>();
  tenantKeys = 0;
  toolKeys = 0;
  constructor(readonly startMs: number) {}
}

/**
 * Issue 39: every outcome report is counted here, in memory, per tool at GLOBAL and per
 * (tool, tenant), per minute — never written on its own request, so a clean success still
 * writes nothing. Every STATS_FLUSH_MS (and at shutdown) the counts go to outcome_stats as one
 * `$inc` upsert per hour and day document touched, and the memory starts over.
 *
 * Memory is bounded whatever the number of tools and tenants: at most STATS_MAX_TOOLS tool counts and
 * STATS_MAX_TENANT_KEYS (tool, tenant) pairs held until the next flush; a report for a key past the bound is
 * not counted for that key (the GLOBAL count of a tool already counted still is) and is counted
 * as dropped in /metrics. A flush the database refuses is dropped, not retried: part of an
 * unordered bulk of increments may have been applied, and a retry would count that part twice
 * (statistics are evidence, an undercount during an outage is the lesser harm; P301). When five
 * minutes are held unflushed (a long interval, a clock that jumped) a flush starts at once; only
 * if minutes still pile up past that are the oldest dropped and counted. A SIGKILL loses what was counted since the
 * last flush: at most one interval (P301).
 */
@Injectable()
export class OutcomeStatsRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OutcomeStatsRecorder.name);
  private current: Minute | null = null;
  private sealed: Minute[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Cells held across every minute not yet flushed: the memory bound applies to these. */
  private toolKeys = 0;
  private tenantKeys = 0;
  /** Tools with series of their own in /metrics: name → successes, failures since start. */
  private readonly watched: Map<string, { successes: number; failures: number }>;
  readonly totals: OutcomeStatsTotals = {
    successes: 0,
    failures: 0,
    droppedTools: 0,
    droppedTenantKeys: 0,
    droppedMinutes: 0,
    flushes: 0,
    flushFailures: 0,
    documentsWritten: 0,
    lastFlushMs: 0,
  };

  constructor(
    private readonly repository: OutcomeStatsRepository,
    private readonly config: AppConfig,
  ) {
    this.watched = new Map(config.statsMetricsTools.map((t) => [t, { successes: 0, failures: 0 }]));
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.statsFlushMs);
    this.timer.unref();
  }

  /** The last flush is a stopping instance's last statistics write. */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** One report, already validated: the hot path (a few increments, no I/O). */
  record(
    toolName: string,
    tenantId: string | null | undefined,
    ok: boolean,
    code: ToolErrorCode | undefined,
    durationMs: number | undefined | null,
    nowMs: number,
  ): void {
    if (ok) this.totals.successes++;
    else this.totals.failures++;
    const watched = this.watched.size === 0 ? undefined : this.watched.get(toolName);
    if (watched) {
      if (ok) watched.successes++;
      else watched.failures++;
    }
    const minute = this.minuteOf(nowMs);
    let cells = minute.tools.get(toolName);
    if (!cells) {
      if (this.toolKeys >= this.config.statsMaxTools) {
        this.totals.droppedTools++;
        return;
      }
      cells = { global: new Cell(), tenants: null };
      minute.tools.set(toolName, cells);
      minute.toolKeys++;
      this.toolKeys++;
    }
    cells.global.add(ok, code, durationMs);
    if (tenantId === undefined || tenantId === null) return;
    const tenants = (cells.tenants ??= new Map());
    let cell = tenants.get(tenantId);
    if (!cell) {
      if (this.tenantKeys >= this.config.statsMaxTenantKeys) {
        this.totals.droppedTenantKeys++;
        return;
      }
      cell = new Cell();
      tenants.set(tenantId, cell);
      minute.tenantKeys++;
      this.tenantKeys++;
    }
    cell.add(ok, code, durationMs);
  }

  /** Successes and failures since start of the tools named in STATS_METRICS_TOOLS. */
  watchedTools(): ReadonlyMap<string, { successes: number; failures: number }> {
    return this.watched;
  }

  /** What this instance counted and has not flushed yet, per tool at GLOBAL (the signals add it to what is stored). */
  unflushedGlobal(): { minuteStartMs: number; toolName: string; tally: OutcomeTally }[] {
    const out: { minuteStartMs: number; toolName: string; tally: OutcomeTally }[] = [];
    for (const minute of this.minutes())
      for (const [toolName, cells] of minute.tools) out.push({ minuteStartMs: minute.startMs, toolName, tally: cells.global.tally() });
    return out;
  }

  /** Keys counted in memory now (GLOBAL and tenant), for the memory figures. */
  keysInMemory(): number {
    let keys = 0;
    for (const minute of this.minutes()) keys += minute.toolKeys + minute.tenantKeys;
    return keys;
  }

  /** Writes everything counted so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(
      () => this.flushNow(),
      () => this.flushNow(),
    );
    return this.flushing;
  }

  private minutes(): Minute[] {
    return this.current ? [...this.sealed, this.current] : [...this.sealed];
  }

  private minuteOf(nowMs: number): Minute {
    const startMs = floorTo(nowMs, MINUTE_MS);
    const current = this.current;
    if (current && current.startMs === startMs) return current;
    // A report of an earlier minute than the current one (a clock step back) joins the current minute.
    if (current && current.startMs > startMs) return current;
    if (current) this.seal(current);
    this.current = new Minute(startMs);
    return this.current;
  }

  private seal(minute: Minute): void {
    this.sealed.push(minute);
    // Minutes piling up (a long STATS_FLUSH_MS, a clock that jumped): flush now rather than drop any.
    if (this.sealed.length >= MAX_PENDING_MINUTES) void this.flush();
    while (this.sealed.length > MAX_PENDING_MINUTES) {
      const dropped = this.sealed.shift()!;
      this.toolKeys -= dropped.toolKeys;
      this.tenantKeys -= dropped.tenantKeys;
      this.totals.droppedMinutes++;
    }
  }

  private async flushNow(): Promise<void> {
    const minutes = this.minutes();
    this.sealed = [];
    this.current = null;
    this.toolKeys = 0;
    this.tenantKeys = 0;
    if (minutes.length === 0) return;
    const increments: StatsIncrement[] = [];
    for (const minute of minutes) {
      for (const [toolName, cells] of minute.tools) {
        increments.push({ toolName, tenantId: null, minuteStartMs: minute.startMs, tally: cells.global.tally() });
        if (cells.tenants)
          for (const [tenantId, cell] of cells.tenants)
            increments.push({ toolName, tenantId, minuteStartMs: minute.startMs, tally: cell.tally() });
      }
    }
    const started = performance.now();
    try {
      this.totals.documentsWritten += await this.repository.increment(increments, STATS_RETENTION);
      this.totals.flushes++;
    } catch (error) {
      // Dropped, not retried: part of an unordered bulk may have been applied (P301).
      this.totals.flushFailures++;
      this.totals.droppedMinutes += minutes.length;
      this.logger.warn(`statistics flush failed, ${minutes.length} minute(s) of counts dropped: ${(error as Error).message}`);
    } finally {
      this.totals.lastFlushMs = performance.now() - started;
    }
  }
}
