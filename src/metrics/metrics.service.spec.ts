import { ScopeStatusCount, ToolHealthAdminRepository } from '../persistence/tool-health/tool-health-admin.repository';
import { ToolStatus } from '../domain/tool-status';
import { FailureReason } from '../domain/failure-check';
import { Scope } from '../domain/scope';
import { DocumentCounts } from './document-counts';
import { MetricsService, OutcomeStatsTotals, ToolStatsSource } from './metrics.service';
import { OutcomeTally, addRecord, emptyTally } from '../domain/outcome-stats';
import { ToolErrorCode } from '../domain/tool-error-code';

/** The repository port's count answering `rows` (or failing), counting the queries. */
function fakeRepository(answer: () => Promise<ScopeStatusCount[]>): { repository: ToolHealthAdminRepository; queries: () => number } {
  let queries = 0;
  const repository = {
    countAllByScopeAndStatus: (maxTimeMs: number) => {
      expect(maxTimeMs).toBeGreaterThan(0); // bounded
      queries++;
      return answer();
    },
  } as unknown as ToolHealthAdminRepository;
  return { repository, queries: () => queries };
}

const ROWS: ScopeStatusCount[] = [
  { scope: Scope.GLOBAL, status: ToolStatus.DOWN, count: 2 },
  { scope: Scope.SESSION, status: ToolStatus.OK, count: 40 },
];

function sampleValue(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('MetricsService', () => {
  it('exposes request latency by route pattern, cooldown hits and spawn decisions', async () => {
    const metrics = new MetricsService(new DocumentCounts(fakeRepository(async () => ROWS).repository));
    metrics.observeRequest('GET', '/v1/tools/:toolName/availability', 200, 0.0042);
    metrics.observeRequest('GET', '/v1/tools/:toolName/availability', 200, 0.2);
    metrics.cooldownHit(Scope.GLOBAL);
    metrics.failureDecision(FailureReason.IN_COOLDOWN, false);
    metrics.failureDecision(FailureReason.ELIGIBLE, true);
    const { contentType, body } = await metrics.render();

    expect(contentType).toContain('text/plain');
    const route = 'method="GET",route="/v1/tools/:toolName/availability",status_code="200"';
    expect(sampleValue(body, `tas_http_request_duration_seconds_count{${route}}`)).toBe(2);
    expect(sampleValue(body, `tas_http_request_duration_seconds_bucket{le="0.005",${route}}`)).toBe(1);
    expect(sampleValue(body, 'tas_cooldown_hits_total{scope="GLOBAL"}')).toBe(1);
    expect(sampleValue(body, 'tas_cooldown_hits_total{scope="SESSION"}')).toBe(0); // every scope present from the start
    expect(sampleValue(body, 'tas_diagnoses_total{decision="avoided",reason="IN_COOLDOWN"}')).toBe(1);
    expect(sampleValue(body, 'tas_diagnoses_total{decision="spawned",reason="ELIGIBLE"}')).toBe(1);
    expect(sampleValue(body, 'tas_diagnoses_total{decision="avoided",reason="KNOWN_DOWN"}')).toBe(0);
    expect(sampleValue(body, 'tas_documents{scope="GLOBAL",status="DOWN"}')).toBe(2);
    expect(sampleValue(body, 'tas_documents{scope="SESSION",status="OK"}')).toBe(40);
    expect(sampleValue(body, 'tas_documents{scope="USER",status="DEGRADED"}')).toBe(0); // all 15 series, zeros included
    expect(body).toContain('process_cpu_user_seconds_total'); // default process metrics
  });

  it('keeps two instances apart (own registry, no global state)', async () => {
    const a = new MetricsService(new DocumentCounts(fakeRepository(async () => []).repository));
    const b = new MetricsService(new DocumentCounts(fakeRepository(async () => []).repository));
    a.cooldownHit(Scope.USER);
    expect(sampleValue((await b.render()).body, 'tas_cooldown_hits_total{scope="USER"}')).toBe(0);
  });
});

describe('DocumentCounts', () => {
  it('queries once per TTL, and concurrent scrapes share one query', async () => {
    const fake = fakeRepository(async () => ROWS);
    const counts = new DocumentCounts(fake.repository);
    const [x, y] = await Promise.all([counts.get(), counts.get()]);
    expect(x).toBe(y);
    await counts.get();
    expect(fake.queries()).toBe(1);
    expect(x!.get('GLOBAL|DOWN')).toBe(2);
  });

  it('keeps the last good counts when a query fails, and backs off', async () => {
    let fail = false;
    const fake = fakeRepository(async () => {
      if (fail) throw new Error('operation exceeded time limit');
      return ROWS;
    });
    const counts = new DocumentCounts(fake.repository);
    expect((await counts.get())!.get('SESSION|OK')).toBe(40);
    fail = true;
    const now = Date.now();
    const spy = jest.spyOn(Date, 'now').mockReturnValue(now + counts.ttlMs + 1);
    try {
      expect((await counts.get())!.get('SESSION|OK')).toBe(40);
      expect(counts.failures).toBe(1);
      await counts.get(); // within the back-off: no new query
      expect(fake.queries()).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers a scrape with the last counts when a count takes too long, and uses the late result next time', async () => {
    let release: (rows: ScopeStatusCount[]) => void = () => undefined;
    let slow = false;
    const fake = fakeRepository(() => (slow ? new Promise((resolve) => (release = resolve)) : Promise.resolve(ROWS)));
    const counts = new DocumentCounts(fake.repository);
    expect((await counts.get())!.get('SESSION|OK')).toBe(40);
    slow = true;
    const spy = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + counts.ttlMs + 1);
    try {
      expect((await counts.get(10))!.get('SESSION|OK')).toBe(40); // stale, after 10 ms
      release([{ scope: Scope.SESSION, status: ToolStatus.OK, count: 41 }]);
      await new Promise((resolve) => setImmediate(resolve));
      expect((await counts.get(10))!.get('SESSION|OK')).toBe(41); // fresh, no new query
      expect(fake.queries()).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('reports no samples rather than zeros when it never counted', async () => {
    const metrics = new MetricsService(new DocumentCounts(fakeRepository(async () => Promise.reject(new Error('down'))).repository));
    const { body } = await metrics.render();
    expect(body).not.toMatch(/^tas_documents\{/m);
    expect(sampleValue(body, 'tas_documents_count_failures')).toBe(1);
  });

  it('follows the outcome statistics: counters add what grew since the last scrape, gauges show each watched tool now', async () => {
    const totals: OutcomeStatsTotals = {
      successes: 5,
      failures: 2,
      droppedTools: 0,
      droppedTenantKeys: 1,
      droppedMinutes: 0,
      flushes: 3,
      flushFailures: 1,
      documentsWritten: 40,
      lastFlushMs: 12,
    };
    const recent: OutcomeTally = emptyTally();
    for (let i = 0; i < 9; i++) addRecord(recent, { ok: true, durationMs: 2000 });
    addRecord(recent, { ok: false, code: ToolErrorCode.BACKEND_FAILED, durationMs: 2000 });
    let watched = new Map([['jira_search', { recent }]]);
    const source: ToolStatsSource = {
      totals: () => totals,
      keysInMemory: () => 7,
      watchedTotals: () => new Map([['jira_search', { successes: totals.successes, failures: totals.failures }]]),
      signalCounts: () => ({ failingOften: 0, slow: 1 }),
      watchedRecent: () => watched,
    };
    const metrics = new MetricsService(new DocumentCounts(fakeRepository(async () => []).repository));
    metrics.countToolStatsWith(source);

    let body = (await metrics.render()).body;
    expect(sampleValue(body, 'tas_tool_calls_total{outcome="success"}')).toBe(5);
    expect(sampleValue(body, 'tas_outcome_stats_dropped_total{what="tenant"}')).toBe(1);
    expect(sampleValue(body, 'tas_outcome_stats_flushes_total{result="documents"}')).toBe(40);
    expect(sampleValue(body, 'tas_watched_tool_recent_success_ratio{tool="jira_search"}')).toBeCloseTo(0.9);
    expect(sampleValue(body, 'tas_watched_tool_recent_p95_seconds{tool="jira_search"}')).toBeCloseTo(2, 0);

    // The recorder's totals only grow; a scrape adds the growth once. A tool gone quiet has no gauge.
    totals.successes = 8;
    watched = new Map();
    body = (await metrics.render()).body;
    expect(sampleValue(body, 'tas_tool_calls_total{outcome="success"}')).toBe(8);
    expect(sampleValue((await metrics.render()).body, 'tas_tool_calls_total{outcome="success"}')).toBe(8);
    expect(sampleValue(body, 'tas_watched_tool_recent_success_ratio{tool="jira_search"}')).toBeUndefined();
  });
});
