import { hostname } from 'node:os';
import { ApiKeyEntry, parseApiKeys } from './api-keys';
import { MAX_SWEEP_SLICE } from '../domain/relay-sweep';

/**
 * Every setting of the service, read once from the environment at boot. A bad or missing value
 * stops the start with a message naming the variable (loadConfig throws ConfigError).
 */
export class AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  mongodbUri: string;
  /** Fail fast instead of queueing when the database is away (no mongoose buffering). */
  dbServerSelectionTimeoutMs: number;
  /** Driver command events, so tests can prove a path issues no write. Off in production. */
  dbMonitorCommands: boolean;
  /** A silent connection (black hole, frozen database) is dropped after this long (P41). */
  dbSocketTimeoutMs: number;
  /** How often the database is pinged for readiness, and how long one ping may take (P41). */
  dbPingIntervalMs: number;
  dbPingTimeoutMs: number;
  /** The longest a request waits for the database before it answers 503 (P41). */
  requestDeadlineMs: number;
  /** Live Idempotency-Keys one API key may hold; past it a keyed write is a 429 (P122). */
  idempotencyKeysPerCaller: number;
  /** How long an in-flight key stays locked if its request never finishes (crash); a bound on a stuck key (P122). */
  idempotencyLockMs: number;
  /** How long a retry waits for the first request with its key before answering 409 (P122). */
  idempotencyWaitMs: number;
  apiKeys: ApiKeyEntry[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  historyLimitDefault: number;
  cooldownGraceMs: number;
  sweepIntervalMs: number;
  probeDueAfterMs: number;
  bookkeepingFlushMs: number;
  /** P354: how many documents an instance keeps as it last wrote them (0 = none). */
  writtenDocumentsMax: number;
  bodyLimitBytes: number;
  /** The host names /mcp answers under (Host and Origin); `*` = any (P136). */
  mcpAllowedHosts: string[];
  /** The longest a client may take to send a whole request (headers and body): then 408 and closed (P127). */
  httpRequestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (P127). */
  httpKeepAliveTimeoutMs: number;
  /** At shutdown, connections still busy after this are destroyed, so the final flush runs (P127). */
  shutdownGraceMs: number;
  /** At shutdown, a keep-alive connection idle at that moment may bring one more request for this long (P151). */
  shutdownIdleDrainMs: number;
  docsEnabled: boolean;
  playgroundEnabled: boolean;
  introspectionEnabled: boolean;
  outboxPollMs: number;
  /** Issue 16 (P75): how far ahead lookups and the annotation show a coming maintenance window. */
  maintenanceLookaheadMs: number;
  /** How long an instance reuses its read of the windows (another instance's change shows within this) (P75). */
  maintenanceCacheMs: number;
  /** How often window start/end events are written (0 = never on a timer) (P77). */
  maintenanceTickMs: number;
  /** How long before each maintenance start its MAINTENANCE_STARTING event is written (0 = none) (P192). */
  maintenanceWarningLeadMs: number;
  /** Issue 16 (P79): thresholds and window of the wider-evidence counting. */
  widerEvidenceUsers: number;
  widerEvidenceProjects: number;
  widerEvidenceTenants: number;
  widerEvidenceBuckets: number;
  widerEvidenceBucketMs: number;
  /** The counts are flushed to (and re-read from) the shared buckets this often (0 = at once) (P79). */
  widerEvidenceFlushMs: number;
  /** How often the event relay's lease holder moves pending events to the outbox (P53). */
  eventRelayPollMs: number;
  /** How long the relay lease lasts unless renewed (renewed every lease/5). */
  eventRelayLeaseMs: number;
  /** How many tool_health ids per second the relay's sweep checks for events a lost marker hides (P114). */
  eventRelaySweepIdsPerSecond: number;
  /** How often ended pins are looked for, to emit PIN_ENDED (P55); 0 = never on a timer. */
  pinWatchMs: number;
  /** May webhook targets resolve to private or loopback addresses? Default: only outside production (D24 (P185)). */
  webhookAllowPrivateTargets: boolean;
  /** How often the delivery worker looks for events to deliver (0 = never on a timer) (P183). */
  webhookPollMs: number;
  /** The longest one delivery attempt may take, name resolution included (at most 10 s) (P184). */
  webhookTimeoutMs: number;
  /** How long an instance's delivery lease on an endpoint lasts unless renewed (P183). */
  webhookLeaseMs: number;
  /**
   * How many endpoints are delivered to at once. Each endpoint's queue advances on its own, so a
   * receiver that hangs holds one of these slots (for at most WEBHOOK_TIMEOUT_MS), never the others.
   */
  webhookConcurrency: number;
  /**
   * Where people reach this service (e.g. https://tool-health.example.com), for links in change
   * messages: a Slack line ends with a link to the console. Null: no link.
   */
  publicUrl: string | null;
  /** Issue 39: how often each instance writes its outcome statistics (what a SIGKILL can lose at most). */
  statsFlushMs: number;
  /** Issue 39: how often the signals' snapshot is re-read (0 = never on a timer). */
  statsSignalRefreshMs: number;
  /** Issue 39: the "recent" period the signals judge, in minutes. */
  statsRecentMinutes: number;
  /** Issue 39: calls needed in the recent and in the usual period before a signal may be on. */
  statsMinCalls: number;
  /** Issue 39: memory bound: tools counted at once (GLOBAL), and (tool, tenant) pairs counted at once. */
  statsMaxTools: number;
  statsMaxTenantKeys: number;
  /** Issue 39: the tools that get series of their own in /metrics (bounded: each is a Prometheus series per label set). */
  statsMetricsTools: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Issue 39: per-tool Prometheus series are for the tools someone alerts on, not for every tool. */
export const MAX_METRICS_TOOLS = 100;

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback?: string): string {
    const value = this.env[name];
    if (value === undefined || value === '') {
      if (fallback === undefined) this.problems.push(`${name} is required`);
      return fallback ?? '';
    }
    return value;
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!allowed.includes(raw as T)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      return fallback;
    }
    return raw as T;
  }
}

/**
 * The names a DNS-rebinding page cannot use against /mcp (P136). Unset: the loopback names, this
 * machine's host name and HOST when it names one address; set: exactly its comma-separated list.
 */
function mcpAllowedHosts(list: string, host: string): string[] {
  const names = list
    ? list.split(',')
    : ['localhost', '127.0.0.1', '[::1]', hostname(), ...(host === '0.0.0.0' || host === '::' ? [] : [host])];
  return [...new Set(names.map((name) => name.trim().toLowerCase()).filter(Boolean))];
}

export function loadConfig(env: Env = process.env): AppConfig {
  const r = new Reader(env);
  const nodeEnv = r.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const production = nodeEnv === 'production';
  const config = new AppConfig();
  config.nodeEnv = nodeEnv;
  config.host = r.string('HOST', '0.0.0.0');
  config.port = r.int('PORT', 3000, 0, 65535);
  config.mongodbUri = r.string('MONGODB_URI');
  if (config.mongodbUri && !/^mongodb(\+srv)?:\/\//.test(config.mongodbUri)) {
    r.problems.push('MONGODB_URI must start with mongodb:// or mongodb+srv://');
  }
  config.dbServerSelectionTimeoutMs = r.int('DB_SERVER_SELECTION_TIMEOUT_MS', 800, 50, 60_000);
  config.dbMonitorCommands = r.bool('DB_MONITOR_COMMANDS', false);
  config.dbSocketTimeoutMs = r.int('DB_SOCKET_TIMEOUT_MS', 10_000, 100, 600_000);
  config.dbPingIntervalMs = r.int('DB_PING_INTERVAL_MS', 100, 20, 60_000);
  config.dbPingTimeoutMs = r.int('DB_PING_TIMEOUT_MS', 500, 20, 60_000);
  config.requestDeadlineMs = r.int('REQUEST_DEADLINE_MS', 700, 50, 600_000);
  config.idempotencyKeysPerCaller = r.int('IDEMPOTENCY_KEYS_PER_CALLER', 10_000, 1, 10_000_000);
  // By default long enough for a write abandoned at its deadline to end (see the check below),
  // so raising DB_SOCKET_TIMEOUT_MS or REQUEST_DEADLINE_MS alone never stops the service from starting (P123).
  const lockFloorMs = 3 * config.dbSocketTimeoutMs + config.requestDeadlineMs;
  config.idempotencyLockMs = r.int('IDEMPOTENCY_LOCK_MS', Math.max(60_000, lockFloorMs), 1000, 24 * 3600_000);
  config.idempotencyWaitMs = r.int('IDEMPOTENCY_WAIT_MS', 2000, 0, 60_000);
  // A write abandoned at its deadline runs on for at most a few database round trips, each
  // bounded by the socket timeout; its key must stay locked until it ends, or a retry runs it twice (P123).
  if (config.idempotencyLockMs < lockFloorMs) {
    r.problems.push(
      `IDEMPOTENCY_LOCK_MS (${config.idempotencyLockMs}) must be at least 3 × DB_SOCKET_TIMEOUT_MS + REQUEST_DEADLINE_MS (${lockFloorMs}), so a write abandoned at its deadline ends before its key is free again`,
    );
  }
  const apiKeys = r.string('API_KEYS');
  config.apiKeys = [];
  if (apiKeys) {
    try {
      config.apiKeys = parseApiKeys(apiKeys);
    } catch (error) {
      r.problems.push(`API_KEYS: ${(error as Error).message}`);
    }
  }
  config.logLevel = r.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info');
  config.historyLimitDefault = r.int('HISTORY_LIMIT_DEFAULT', 20, 1, 1000);
  config.cooldownGraceMs = r.int('COOLDOWN_GRACE_MS', 24 * 3600_000, 0);
  config.sweepIntervalMs = r.int('SWEEP_INTERVAL_MS', 0, 0);
  config.probeDueAfterMs = r.int('PROBE_DUE_AFTER_MS', 30 * 60_000, 0);
  config.bookkeepingFlushMs = r.int('BOOKKEEPING_FLUSH_MS', 250, 0, 60_000);
  // ~12.5 KB of heap each with full histories and their history's answer text (P354, P356): ~250 MB at most.
  config.writtenDocumentsMax = r.int('WRITTEN_DOCUMENTS_MAX', 20_000, 0, 1_000_000);
  // A full manifest (500 tools × 4000-character descriptions) must fit.
  config.bodyLimitBytes = r.int('BODY_LIMIT_BYTES', 4 * 1_048_576, 1024, 64 * 1_048_576);
  config.mcpAllowedHosts = mcpAllowedHosts(r.string('MCP_ALLOWED_HOSTS', ''), config.host);
  // A whole 4 MiB manifest at ~150 KB/s fits in 30 s; a body trickled slower is not a client.
  config.httpRequestTimeoutMs = r.int('HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000);
  // Fastify's default: longer than the usual 60 s idle timeout of load balancers, so they close first.
  config.httpKeepAliveTimeoutMs = r.int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 3_600_000);
  // Inside `npm start`'s 10 s stop limit, with room for the final flush and the database close.
  config.shutdownGraceMs = r.int('SHUTDOWN_GRACE_MS', 5000, 0, 600_000);
  // Longer than a busy caller's gap between two requests on one connection; bounded by the grace.
  config.shutdownIdleDrainMs = r.int('SHUTDOWN_IDLE_DRAIN_MS', 1000, 0, 600_000);
  config.docsEnabled = r.bool('DOCS_ENABLED', !production);
  config.playgroundEnabled = r.bool('PLAYGROUND_ENABLED', !production);
  config.introspectionEnabled = r.bool('INTROSPECTION_ENABLED', !production);
  config.outboxPollMs = r.int('OUTBOX_POLL_MS', 500, 10, 60_000);
  config.maintenanceLookaheadMs = r.int('MAINTENANCE_LOOKAHEAD_MS', 24 * 3600_000, 0, 31 * 24 * 3600_000);
  config.maintenanceCacheMs = r.int('MAINTENANCE_CACHE_MS', 1000, 0, 60_000);
  config.maintenanceTickMs = r.int('MAINTENANCE_TICK_MS', 5000, 0, 3600_000);
  config.maintenanceWarningLeadMs = r.int('MAINTENANCE_WARNING_LEAD_MINUTES', 15, 0, 7 * 24 * 60) * 60_000;
  config.widerEvidenceUsers = r.int('WIDER_EVIDENCE_USERS', 5, 1, 100);
  config.widerEvidenceProjects = r.int('WIDER_EVIDENCE_PROJECTS', 3, 1, 100);
  config.widerEvidenceTenants = r.int('WIDER_EVIDENCE_TENANTS', 2, 1, 100);
  config.widerEvidenceBuckets = r.int('WIDER_EVIDENCE_BUCKETS', 10, 1, 120);
  config.widerEvidenceBucketMs = r.int('WIDER_EVIDENCE_BUCKET_MS', 60_000, 1000, 3600_000);
  config.widerEvidenceFlushMs = r.int('WIDER_EVIDENCE_FLUSH_MS', 1000, 0, 60_000);
  config.eventRelayPollMs = r.int('EVENT_RELAY_POLL_MS', 200, 10, 60_000);
  config.eventRelayLeaseMs = r.int('EVENT_RELAY_LEASE_MS', 4_000, 500, 600_000);
  config.eventRelaySweepIdsPerSecond = r.int('EVENT_RELAY_SWEEP_IDS_PER_SECOND', 500, 1, 100_000);
  if ((config.eventRelaySweepIdsPerSecond * config.eventRelayPollMs) / 1000 > MAX_SWEEP_SLICE) {
    r.problems.push(
      `EVENT_RELAY_SWEEP_IDS_PER_SECOND (${config.eventRelaySweepIdsPerSecond}) must check at most ${MAX_SWEEP_SLICE} ids per EVENT_RELAY_POLL_MS (${config.eventRelayPollMs}), so one sweep read stays short`,
    );
  }
  config.pinWatchMs = r.int('PIN_WATCH_MS', 1000, 0, 3600_000);
  config.webhookAllowPrivateTargets = r.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', !production);
  config.webhookPollMs = r.int('WEBHOOK_POLL_MS', 1000, 0, 600_000);
  config.webhookTimeoutMs = r.int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 10_000);
  config.webhookLeaseMs = r.int('WEBHOOK_LEASE_MS', 4_000, 1000, 3_600_000);
  config.webhookConcurrency = r.int('WEBHOOK_CONCURRENCY', 32, 1, 256);
  const publicUrl = r.string('PUBLIC_URL', '').trim().replace(/\/+$/, '');
  config.publicUrl = publicUrl === '' ? null : publicUrl;
  if (config.publicUrl !== null && !/^https?:\/\/[^\s/]+/.test(config.publicUrl)) {
    r.problems.push(`PUBLIC_URL must be an http(s) URL such as https://tool-health.example.com, got "${config.publicUrl}"`);
  }
  config.statsFlushMs = r.int('STATS_FLUSH_MS', 10_000, 100, 300_000);
  config.statsSignalRefreshMs = r.int('STATS_SIGNAL_REFRESH_MS', 30_000, 0, 3_600_000);
  config.statsRecentMinutes = r.int('STATS_RECENT_MINUTES', 5, 1, 60);
  config.statsMinCalls = r.int('STATS_MIN_CALLS', 20, 1, 1_000_000);
  config.statsMaxTools = r.int('STATS_MAX_TOOLS', 20_000, 1, 1_000_000);
  config.statsMaxTenantKeys = r.int('STATS_MAX_TENANT_KEYS', 250_000, 0, 10_000_000);
  config.statsMetricsTools = r
    .string('STATS_METRICS_TOOLS', '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (config.statsMetricsTools.length > MAX_METRICS_TOOLS) {
    r.problems.push(
      `STATS_METRICS_TOOLS names ${config.statsMetricsTools.length} tools; at most ${MAX_METRICS_TOOLS} get series of their own`,
    );
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
