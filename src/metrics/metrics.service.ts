import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FailureReason } from '../domain/failure-check';
import { CASCADE_ORDER, Scope } from '../domain/scope';
import { ToolStatus } from '../domain/tool-status';
import { DocumentCounts } from './document-counts';
import { OutcomeTally, percentile, successRate } from '../domain/outcome-stats';

/** The outcome statistics' counts since start, as the recorder keeps them and /metrics shows them. */
export interface OutcomeStatsTotals {
  successes: number;
  failures: number;
  /** Reports not counted because a memory bound was reached, by level. */
  droppedTools: number;
  droppedTenantKeys: number;
  /** Minutes dropped because flushes kept failing. */
  droppedMinutes: number;
  flushes: number;
  flushFailures: number;
  documentsWritten: number;
  lastFlushMs: number;
}

/** Issue 39: what the outcome statistics show in /metrics (read at scrape time, nothing on the hot path). */
export interface ToolStatsSource {
  totals(): OutcomeStatsTotals;
  keysInMemory(): number;
  /** Successes and failures since start of the tools named in STATS_METRICS_TOOLS. */
  watchedTotals(): ReadonlyMap<string, { successes: number; failures: number }>;
  signalCounts(): { failingOften: number; slow: number };
  /** The recent counts of the same tools, at the last signal refresh. */
  watchedRecent(): ReadonlyMap<string, { recent: OutcomeTally }>;
}

/** Request latency buckets (seconds): the hot path lives between 0.5 ms and 50 ms. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const STATUSES = Object.values(ToolStatus);

/**
 * The service's Prometheus metrics (issue 7), in a registry of its own (not prom-client's global
 * one), so several application instances in one process (the e2e tier) never collide.
 * Everything on the hot path is a counter increment or a histogram observation; the document
 * counts are queried on scrape only, cached and bounded (DocumentCounts).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly requestDuration = new Histogram({
    name: 'tas_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern (never the raw URL), method and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly cooldownHits = new Counter({
    name: 'tas_cooldown_hits_total',
    help: 'failure reports that met an active cooldown (D8), by the scope of the matching entry',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });

  private readonly diagnoses = new Counter({
    name: 'tas_diagnoses_total',
    help: 'failure reports by decision: "spawned" = eligible for a diagnosis, "avoided" = not, with the reason (D8)',
    labelNames: ['decision', 'reason'] as const,
    registers: [this.registry],
  });

  /** Issue 39: where the outcome statistics' series read from; the statistics room registers it. */
  private toolStats: ToolStatsSource | null = null;

  /** Where the maintenance gauge reads from; the maintenance room registers it (metrics sits below the features) (P193). */
  private maintenanceInForce: (() => Promise<number>) | null = null;

  constructor(counts: DocumentCounts) {
    collectDefaultMetrics({ register: this.registry });
    const maintenanceSource = () => this.maintenanceInForce;
    new Gauge({
      name: 'tas_maintenance_windows_in_force',
      help: 'maintenance windows in force now (one-off windows and occurrences of recurring ones), from the instance snapshot',
      registers: [this.registry],
      async collect() {
        const source = maintenanceSource();
        if (source) this.set(await source());
      },
    });
    for (const scope of CASCADE_ORDER) this.cooldownHits.inc({ scope }, 0);
    for (const reason of Object.values(FailureReason)) {
      this.diagnoses.inc({ decision: reason === FailureReason.ELIGIBLE ? 'spawned' : 'avoided', reason }, 0);
    }
    new Gauge({
      name: 'tas_documents',
      help: `stored health documents by scope and status (queried on scrape, cached ${counts.ttlMs / 1000} s)`,
      labelNames: ['scope', 'status'] as const,
      registers: [this.registry],
      async collect() {
        const current = await counts.get();
        if (!current) return; // never counted yet and the query failed: no samples, not zeros
        for (const scope of CASCADE_ORDER) {
          for (const status of STATUSES) this.set({ scope, status }, current.get(`${scope}|${status}`) ?? 0);
        }
      },
    });
    new Gauge({
      name: 'tas_documents_count_duration_seconds',
      help: 'how long the last count of documents by scope and status took',
      registers: [this.registry],
      async collect() {
        await counts.get(); // the same (shared, cached) query as tas_documents: gauges are collected concurrently
        this.set(counts.lastDurationMs / 1000);
      },
    });
    new Gauge({
      name: 'tas_documents_count_failures',
      help: 'count queries that failed or hit their time limit since start (the last good counts are kept)',
      registers: [this.registry],
      async collect() {
        await counts.get();
        this.set(counts.failures);
      },
    });
    this.registerToolStats(() => this.toolStats);
  }

  /** Issue 39: the statistics feature tells the outcome series where to read. */
  countToolStatsWith(source: ToolStatsSource): void {
    this.toolStats = source;
  }

  /** onResponse: `route` is the route pattern ("/v1/tools/:toolName/availability"). */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status_code: statusCode }, seconds);
  }

  cooldownHit(scope: Scope): void {
    this.cooldownHits.inc({ scope });
  }

  failureDecision(reason: FailureReason, spawned: boolean): void {
    this.diagnoses.inc({ decision: spawned ? 'spawned' : 'avoided', reason });
  }

  /** The maintenance feature tells the gauge how to count the windows in force (P193). */
  countMaintenanceInForceWith(source: () => Promise<number>): void {
    this.maintenanceInForce = source;
  }

  /**
   * Issue 39. Totals for every tool together, and series per tool ONLY for the tools named in
   * STATS_METRICS_TOOLS (at most 100): a label per tool for ten thousand tools would be tens of
   * thousands of series per instance — more than many Prometheus setups accept, and most of them
   * never looked at. The statistics API answers for any tool; Prometheus gets the ones alerted on.
   * Counters read cumulative totals the recorder keeps, so a scrape costs no database read.
   */
  private registerToolStats(source: () => ToolStatsSource | null): void {
    const registers = [this.registry];
    const delta = (counter: Counter<string>, labels: Record<string, string>, seen: Map<string, number>, value: number) => {
      const key = JSON.stringify(labels);
      const last = seen.get(key) ?? 0;
      if (value > last) counter.inc(labels, value - last);
      seen.set(key, value);
    };
    // A counter that follows cumulative totals of the recorder: each scrape adds what grew since the last.
    const totalsCounter = (name: string, help: string, label: string, values: (t: OutcomeStatsTotals) => Record<string, number>) => {
      const seen = new Map<string, number>();
      new Counter({
        name,
        help,
        labelNames: [label],
        registers,
        collect() {
          const s = source();
          if (!s) return;
          for (const [value, total] of Object.entries(values(s.totals()))) delta(this, { [label]: value }, seen, total);
        },
      });
    };
    totalsCounter('tas_tool_calls_total', 'call outcomes reported by the dispatcher, all tools together (issue 39)', 'outcome', (t) => ({
      success: t.successes,
      failure: t.failures,
    }));
    totalsCounter(
      'tas_outcome_stats_dropped_total',
      'reports not counted in the statistics: a memory bound reached (tool, tenant) or minutes dropped after failed flushes (minute)',
      'what',
      (t) => ({ tool: t.droppedTools, tenant: t.droppedTenantKeys, minute: t.droppedMinutes }),
    );
    totalsCounter(
      'tas_outcome_stats_flushes_total',
      'statistics flushes of this instance, by result, and the bucket documents they updated',
      'result',
      (t) => ({ ok: t.flushes, failed: t.flushFailures, documents: t.documentsWritten }),
    );
    new Gauge({
      name: 'tas_outcome_stats_keys_in_memory',
      help: 'tool and (tool, tenant) counts held in memory until the next flush (bounded by STATS_MAX_TOOLS and STATS_MAX_TENANT_KEYS)',
      registers,
      collect() {
        const s = source();
        if (s) this.set(s.keysInMemory());
      },
    });
    new Gauge({
      name: 'tas_tool_signals',
      help: 'tools with a signal on now (failing often, slow), at the last refresh',
      labelNames: ['signal'] as const,
      registers,
      collect() {
        const s = source();
        if (!s) return;
        const c = s.signalCounts();
        this.set({ signal: 'failing_often' }, c.failingOften);
        this.set({ signal: 'slow' }, c.slow);
      },
    });
    const seenTool = new Map<string, number>();
    new Counter({
      name: 'tas_watched_tool_calls_total',
      help: 'call outcomes of the tools named in STATS_METRICS_TOOLS',
      labelNames: ['tool', 'outcome'] as const,
      registers,
      collect() {
        const s = source();
        if (!s) return;
        for (const [tool, t] of s.watchedTotals()) {
          delta(this, { tool, outcome: 'success' }, seenTool, t.successes);
          delta(this, { tool, outcome: 'failure' }, seenTool, t.failures);
        }
      },
    });
    // A gauge per watched tool of its recent calls (cleared at each scrape: a tool that went quiet has none).
    const recentGauge = (name: string, help: string, valueOf: (recent: OutcomeTally) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['tool'] as const,
        registers,
        collect() {
          const s = source();
          if (!s) return;
          this.reset();
          for (const [tool, r] of s.watchedRecent()) {
            const value = valueOf(r.recent);
            if (value !== null) this.set({ tool }, value);
          }
        },
      });
    recentGauge(
      'tas_watched_tool_recent_success_ratio',
      'success rate of the last few minutes (STATS_RECENT_MINUTES) of the tools named in STATS_METRICS_TOOLS',
      successRate,
    );
    recentGauge(
      'tas_watched_tool_recent_p95_seconds',
      '95th percentile duration of the last few minutes of the tools named in STATS_METRICS_TOOLS (exact to within 20 %)',
      (recent) => {
        const p95 = percentile(recent, 0.95);
        return p95 === null ? null : p95 / 1000;
      },
    );
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
