import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FailureReason } from '../domain/failure-check';
import { CASCADE_ORDER, Scope } from '../domain/scope';
import { ToolStatus } from '../domain/tool-status';
import { DocumentCounts } from './document-counts';

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

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
