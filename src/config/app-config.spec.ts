import { hashApiKey } from './api-keys';
import { Role } from '../domain/role';
import { AppConfig, ConfigError, loadConfig } from './app-config';

type Env = Record<string, string | undefined>;

const HASH = hashApiKey('secret-key');
const BASE: Env = {
  MONGODB_URI: 'mongodb://localhost:27017/tas',
  API_KEYS: `ops:admin:${HASH}`,
};

function problemsOf(env: Env): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect((error as ConfigError).message).toContain(problems[0]);
    return problems;
  }
  throw new Error('expected a ConfigError, loadConfig returned');
}

describe('loadConfig', () => {
  it('reads a minimal environment with the development defaults', () => {
    const config = loadConfig(BASE);
    expect(config).toBeInstanceOf(AppConfig);
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '0.0.0.0',
      port: 3000,
      mongodbUri: 'mongodb://localhost:27017/tas',
      dbMonitorCommands: false,
      logLevel: 'info',
      historyLimitDefault: 20,
      docsEnabled: true,
      playgroundEnabled: true,
      introspectionEnabled: true,
    });
    expect(config.apiKeys).toEqual([{ name: 'ops', roles: [Role.ADMIN], sha256: HASH }]);
  });

  it('does not read process.env when an env is given', () => {
    const saved = process.env.PORT;
    process.env.PORT = 'not-a-port';
    try {
      expect(loadConfig(BASE).port).toBe(3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it.each<[string, Env, Partial<AppConfig>]>([
    ['PORT', { PORT: '8080' }, { port: 8080 }],
    ['PORT 0', { PORT: '0' }, { port: 0 }],
    ['PORT 65535', { PORT: '65535' }, { port: 65535 }],
    ['bool true', { DB_MONITOR_COMMANDS: 'true' }, { dbMonitorCommands: true }],
    ['bool 1', { DB_MONITOR_COMMANDS: '1' }, { dbMonitorCommands: true }],
    ['bool false', { DOCS_ENABLED: 'false' }, { docsEnabled: false }],
    ['bool 0', { PLAYGROUND_ENABLED: '0' }, { playgroundEnabled: false }],
    ['empty values fall back', { PORT: '', DB_MONITOR_COMMANDS: '', HOST: '' }, { port: 3000, dbMonitorCommands: false, host: '0.0.0.0' }],
    ['mongodb+srv', { MONGODB_URI: 'mongodb+srv://cluster.example.org/tas' }, { mongodbUri: 'mongodb+srv://cluster.example.org/tas' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'debug' }, { logLevel: 'debug' }],
    ['HISTORY_LIMIT_DEFAULT', { HISTORY_LIMIT_DEFAULT: '50' }, { historyLimitDefault: 50 }],
    ['NODE_ENV test', { NODE_ENV: 'test' }, { nodeEnv: 'test', docsEnabled: true }],
    [
      'database fault defaults (P41)',
      {},
      {
        requestDeadlineMs: 700,
        dbSocketTimeoutMs: 10_000,
        dbPingIntervalMs: 100,
        dbPingTimeoutMs: 500,
      },
    ],
    ['REQUEST_DEADLINE_MS', { REQUEST_DEADLINE_MS: '900' }, { requestDeadlineMs: 900 }],
    ['the relay sweep rate by default', {}, { eventRelaySweepIdsPerSecond: 500 }],
    ['Idempotency-Key defaults (P122)', {}, { idempotencyKeysPerCaller: 10_000, idempotencyLockMs: 60_000, idempotencyWaitMs: 2000 }],
    [
      'the Idempotency-Key lock by default outlasts a slow socket (P123)',
      { DB_SOCKET_TIMEOUT_MS: '60000' },
      { idempotencyLockMs: 180_700 },
    ],
    ['the relay sweep rate', { EVENT_RELAY_SWEEP_IDS_PER_SECOND: '2000' }, { eventRelaySweepIdsPerSecond: 2000 }],
    [
      'the relay sweep rate at 1 000 ids per poll',
      { EVENT_RELAY_SWEEP_IDS_PER_SECOND: '1000', EVENT_RELAY_POLL_MS: '1000' },
      { eventRelaySweepIdsPerSecond: 1000 },
    ],
  ])('reads %s', (_label, env, expected) => {
    expect(loadConfig({ ...BASE, ...env })).toMatchObject(expected);
  });

  it.each<[string, Env, boolean]>([
    ['production defaults: everything off', {}, false],
    ['production with explicit opt-in', { DOCS_ENABLED: 'true', PLAYGROUND_ENABLED: '1', INTROSPECTION_ENABLED: 'true' }, true],
  ])('%s', (_label, env, enabled) => {
    const config = loadConfig({ ...BASE, NODE_ENV: 'production', ...env });
    expect(config.nodeEnv).toBe('production');
    expect({ docs: config.docsEnabled, playground: config.playgroundEnabled, introspection: config.introspectionEnabled }).toEqual({
      docs: enabled,
      playground: enabled,
      introspection: enabled,
    });
  });

  it.each<[string, Env, string]>([
    ['missing MONGODB_URI', { MONGODB_URI: undefined }, 'MONGODB_URI'],
    ['empty MONGODB_URI', { MONGODB_URI: '' }, 'MONGODB_URI'],
    ['MONGODB_URI of another scheme', { MONGODB_URI: 'postgres://localhost/x' }, 'MONGODB_URI'],
    ['missing API_KEYS', { API_KEYS: undefined }, 'API_KEYS'],
    ['malformed API_KEYS', { API_KEYS: 'ops:admin' }, 'API_KEYS'],
    ['API_KEYS with an unknown role', { API_KEYS: `ops:root:${HASH}` }, 'API_KEYS'],
    ['non-numeric PORT', { PORT: 'http' }, 'PORT'],
    ['negative PORT', { PORT: '-1' }, 'PORT'],
    ['PORT too large', { PORT: '65536' }, 'PORT'],
    ['fractional PORT', { PORT: '80.5' }, 'PORT'],
    ['bad bool', { DB_MONITOR_COMMANDS: 'yes' }, 'DB_MONITOR_COMMANDS'],
    ['upper-case bool', { DOCS_ENABLED: 'TRUE' }, 'DOCS_ENABLED'],
    ['bad NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV'],
    ['bad LOG_LEVEL', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    ['HISTORY_LIMIT_DEFAULT below 1', { HISTORY_LIMIT_DEFAULT: '0' }, 'HISTORY_LIMIT_DEFAULT'],
    ['BODY_LIMIT_BYTES below 1024', { BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    ['REQUEST_DEADLINE_MS below 50', { REQUEST_DEADLINE_MS: '10' }, 'REQUEST_DEADLINE_MS'],
    ['fractional REQUEST_DEADLINE_MS', { REQUEST_DEADLINE_MS: '700.5' }, 'REQUEST_DEADLINE_MS'],
    ['DB_SOCKET_TIMEOUT_MS with a unit', { DB_SOCKET_TIMEOUT_MS: '10s' }, 'DB_SOCKET_TIMEOUT_MS'],
    ['DB_PING_INTERVAL_MS negative', { DB_PING_INTERVAL_MS: '-5' }, 'DB_PING_INTERVAL_MS'],
    [
      'IDEMPOTENCY_LOCK_MS shorter than a write abandoned at its deadline may run (P123)',
      { IDEMPOTENCY_LOCK_MS: '20000', DB_SOCKET_TIMEOUT_MS: '10000' },
      'IDEMPOTENCY_LOCK_MS',
    ],
    ['IDEMPOTENCY_KEYS_PER_CALLER of 0', { IDEMPOTENCY_KEYS_PER_CALLER: '0' }, 'IDEMPOTENCY_KEYS_PER_CALLER'],
    ['DB_PING_TIMEOUT_MS in exponent form', { DB_PING_TIMEOUT_MS: '1e3' }, 'DB_PING_TIMEOUT_MS'],
    ['EVENT_RELAY_SWEEP_IDS_PER_SECOND of 0', { EVENT_RELAY_SWEEP_IDS_PER_SECOND: '0' }, 'EVENT_RELAY_SWEEP_IDS_PER_SECOND'],
    [
      'EVENT_RELAY_SWEEP_IDS_PER_SECOND over 1 000 ids per poll',
      { EVENT_RELAY_SWEEP_IDS_PER_SECOND: '1001', EVENT_RELAY_POLL_MS: '1000' },
      'EVENT_RELAY_SWEEP_IDS_PER_SECOND',
    ],
  ])('reports %s naming %s', (_label, env, variable) => {
    const problems = problemsOf({ ...BASE, ...env });
    expect(problems.length).toBeGreaterThanOrEqual(1);
    expect(problems.every((p) => p.startsWith(variable))).toBe(true);
  });

  it('reads the maintenance and wider-evidence settings (issue 16) with their defaults and bounds', () => {
    expect(loadConfig(BASE)).toMatchObject({
      maintenanceLookaheadMs: 86_400_000,
      maintenanceCacheMs: 1000,
      maintenanceTickMs: 5000,
      widerEvidenceUsers: 5,
      widerEvidenceProjects: 3,
      widerEvidenceTenants: 2,
      widerEvidenceBuckets: 10,
      widerEvidenceBucketMs: 60_000,
      widerEvidenceFlushMs: 1000,
    });
    expect(loadConfig({ ...BASE, WIDER_EVIDENCE_USERS: '8', MAINTENANCE_LOOKAHEAD_MS: '0' })).toMatchObject({
      widerEvidenceUsers: 8,
      maintenanceLookaheadMs: 0,
    });
    const problems = problemsOf({ ...BASE, WIDER_EVIDENCE_USERS: '0', WIDER_EVIDENCE_BUCKET_MS: '10', MAINTENANCE_CACHE_MS: 'soon' });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['MAINTENANCE_CACHE_MS', 'WIDER_EVIDENCE_USERS', 'WIDER_EVIDENCE_BUCKET_MS']);
  });

  it('reads the HTTP timeouts, the shutdown grace and idle drain (P127, P151) with their defaults and bounds', () => {
    expect(loadConfig(BASE)).toMatchObject({
      httpRequestTimeoutMs: 30_000,
      httpKeepAliveTimeoutMs: 72_000,
      shutdownGraceMs: 5000,
      shutdownIdleDrainMs: 1000,
    });
    expect(
      loadConfig({
        ...BASE,
        HTTP_REQUEST_TIMEOUT_MS: '2000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
        SHUTDOWN_GRACE_MS: '0',
        SHUTDOWN_IDLE_DRAIN_MS: '0',
      }),
    ).toMatchObject({
      httpRequestTimeoutMs: 2000,
      httpKeepAliveTimeoutMs: 5000,
      shutdownGraceMs: 0,
      shutdownIdleDrainMs: 0,
    });
    const problems = problemsOf({
      ...BASE,
      HTTP_REQUEST_TIMEOUT_MS: '0',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5s',
      SHUTDOWN_GRACE_MS: '-1',
      SHUTDOWN_IDLE_DRAIN_MS: 'soon',
    });
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'HTTP_REQUEST_TIMEOUT_MS',
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      'SHUTDOWN_GRACE_MS',
      'SHUTDOWN_IDLE_DRAIN_MS',
    ]);
  });

  it('reports every problem together, each naming its variable', () => {
    const problems = problemsOf({ PORT: 'abc', DB_MONITOR_COMMANDS: 'maybe', NODE_ENV: 'prod', LOG_LEVEL: 'loud' });
    for (const variable of ['MONGODB_URI', 'API_KEYS', 'PORT', 'DB_MONITOR_COMMANDS', 'NODE_ENV', 'LOG_LEVEL']) {
      expect(problems.some((p) => p.startsWith(variable))).toBe(true);
    }
    expect(problems.find((p) => p.startsWith('PORT'))).toContain('"abc"');
    expect(problems.find((p) => p.startsWith('DB_MONITOR_COMMANDS'))).toContain('"maybe"');
  });

  it('ConfigError lists the problems in its message', () => {
    const error = new ConfigError(['A is required', 'B must be true or false, got "x"']);
    expect(error.name).toBe('ConfigError');
    expect(error.message).toContain('A is required');
    expect(error.message).toContain('B must be true or false');
  });

  it('D24 (P185): private webhook targets are allowed by default only outside production; an attempt is at most 10 s; the lease is 4 s, renewed on its own beat', () => {
    expect(loadConfig(BASE)).toMatchObject({
      webhookAllowPrivateTargets: true,
      webhookTimeoutMs: 10_000,
      webhookLeaseMs: 4_000,
      webhookPollMs: 1000,
      webhookConcurrency: 32,
      publicUrl: null,
    });
    expect(loadConfig({ ...BASE, PUBLIC_URL: 'https://tool-health.example.com/' }).publicUrl).toBe('https://tool-health.example.com');
    expect(problemsOf({ ...BASE, PUBLIC_URL: 'tool-health' })).toEqual([expect.stringMatching(/^PUBLIC_URL must be an http\(s\) URL/)]);
    expect(loadConfig({ ...BASE, WEBHOOK_CONCURRENCY: '4' }).webhookConcurrency).toBe(4);
    expect(problemsOf({ ...BASE, WEBHOOK_CONCURRENCY: '0' })).toEqual([
      expect.stringMatching(/^WEBHOOK_CONCURRENCY must be an integer between 1 and 256/),
    ]);
    expect(loadConfig({ ...BASE, NODE_ENV: 'production' }).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ ...BASE, NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
    expect(loadConfig({ ...BASE, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhookAllowPrivateTargets).toBe(false);
    expect(problemsOf({ ...BASE, WEBHOOK_TIMEOUT_MS: '30000' })).toEqual([
      expect.stringMatching(/^WEBHOOK_TIMEOUT_MS must be an integer between 100 and 10000/),
    ]);
    // Renewed on a beat of its own, a lease need not outlast an attempt: only the floor applies.
    expect(loadConfig({ ...BASE, WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '2000' })).toMatchObject({ webhookLeaseMs: 2000 });
    expect(problemsOf({ ...BASE, WEBHOOK_LEASE_MS: '500' })).toEqual([
      expect.stringMatching(/^WEBHOOK_LEASE_MS must be an integer between 1000/),
    ]);
  });
});
