import { Injectable } from '@nestjs/common';
import { ToolHealthAdminRepository } from '../persistence/tool-health/tool-health-admin.repository';

/** Counts older than this are queried again on the next scrape. */
const TTL_MS = 15_000;
/** The database gives up on the count after this long (maxTimeMS); the last counts stay. */
const MAX_TIME_MS = 5_000;
/**
 * A scrape waits at most this long for a count in progress, then answers with the last counts
 * (the count goes on and serves the next scrape): not every server honours maxTimeMS, and a
 * scrape must stay well inside Prometheus's timeout.
 */
const SCRAPE_WAIT_MS = 1_000;

/**
 * Documents by scope and status for the `tas_documents` gauge: ONE `$group` aggregate, run only
 * when /metrics is scraped, at most once per TTL (concurrent scrapes share one query) and cut off
 * by maxTimeMS, so a scrape never costs the database more than one bounded scan per 15 s per
 * instance, and never waits more than a second for it. On a collection of millions, scrape one
 * instance for this gauge (docs/scaling.md).
 */
@Injectable()
export class DocumentCounts {
  readonly ttlMs = TTL_MS;
  lastDurationMs = 0;
  failures = 0;
  private counts: Map<string, number> | null = null;
  private countedAt = -Infinity;
  private pending: Promise<Map<string, number> | null> | null = null;

  constructor(private readonly repository: ToolHealthAdminRepository) {}

  /** Counts keyed `SCOPE|STATUS` (the last ones when a count is still running); null when never counted. */
  async get(waitMs = SCRAPE_WAIT_MS): Promise<Map<string, number> | null> {
    if (Date.now() - this.countedAt < TTL_MS) return this.counts;
    this.pending ??= this.query().finally(() => {
      this.pending = null;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Map<string, number> | null>((resolve) => {
      timer = setTimeout(() => resolve(this.counts), waitMs);
    });
    try {
      return await Promise.race([this.pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async query(): Promise<Map<string, number> | null> {
    const started = Date.now();
    try {
      const rows = await this.repository.countAllByScopeAndStatus(MAX_TIME_MS);
      this.counts = new Map(rows.map((r) => [`${r.scope}|${r.status}`, r.count]));
      this.countedAt = Date.now();
    } catch {
      this.failures++;
      this.countedAt = Date.now(); // back off for a TTL rather than retry on every scrape
    } finally {
      this.lastDurationMs = Date.now() - started;
    }
    return this.counts;
  }
}
