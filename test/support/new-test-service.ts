import { Logger } from '@nestjs/common';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { CooldownService } from '../../src/features/cooldowns/cooldown.service';
import { DiagnosisService } from '../../src/features/diagnoses/diagnosis.service';
import { MaintenanceService } from '../../src/features/maintenance/maintenance.service';
import { BookkeepingBuffer } from '../../src/features/outcomes/bookkeeping-buffer.service';
import { DispatchOutcomeService } from '../../src/features/outcomes/dispatch-outcome.service';
import { OutcomeBatchService } from '../../src/features/outcomes/outcome-batch.service';
import { SystemWritesService } from '../../src/features/system-writes/system-writes.service';
import { TenantSettingsService } from '../../src/features/tenants/tenant-settings.service';
import { CascadeService } from '../../src/features/tool-health/cascade.service';
import { WiderEvidenceService } from '../../src/features/wider-evidence/wider-evidence.service';
import { OutcomeStatsRecorder } from '../../src/features/tool-stats/outcome-stats-recorder.service';
import { ToolSignalsService } from '../../src/features/tool-stats/tool-signals.service';
import { ToolStatsService } from '../../src/features/tool-stats/tool-stats.service';
import { EventRelay } from '../../src/write-path/event-relay.service';
import { EventScopeStatus } from '../../src/write-path/event-scope-status';
import { HealthStore } from '../../src/write-path/health-store.service';
import {
  InMemoryDatabase,
  InMemoryEventRelayRepository,
  InMemoryHealthEventOutbox,
  InMemoryMaintenanceWindowRepository,
  InMemoryOutcomeStatsRepository,
  InMemoryTenantSettingsRepository,
  InMemoryToolHealthAdminRepository,
  InMemoryToolHealthRepository,
  InMemoryWiderEvidenceRepository,
  RecordingMetrics,
} from '../fakes';
import { T0 } from '../factories';
import { API_KEYS_ENV } from './api-keys';
import { FakeClock } from './fake-clock';

/**
 * The service tier (docs/decisions.md P154): a feature service with its real collaborators (the
 * write path, the event relay, the domain) and an in-memory fake for every port, a fake clock
 * at T0 and the configuration the service would read from a bare environment. Built with plain
 * `new`, no Nest container: the graph is small, synchronous and type-checked, and a changed
 * constructor is a type error HERE, the one place that knows how services are put together.
 *
 * No lifecycle hook runs, so no timer is started: the bookkeeping buffer, wider evidence and the
 * maintenance snapshot are set to write and read at once (flush intervals 0), and the event relay
 * holds no lease — the events a write commits stay in its document (`ports.toolHealth.pendingEvents`)
 * and standalone ones are staged (`ports.eventRelay.stagedEvents()`), as on an instance that is
 * not the relay's lease holder.
 */

/** The environment every test service reads its AppConfig from; a test adds or overrides variables. */
export const TEST_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'test',
  MONGODB_URI: 'mongodb://in-memory.invalid/tas_test',
  API_KEYS: API_KEYS_ENV,
  LOG_LEVEL: 'silent',
  BOOKKEEPING_FLUSH_MS: '0',
  WIDER_EVIDENCE_FLUSH_MS: '0',
  MAINTENANCE_CACHE_MS: '0',
  MAINTENANCE_TICK_MS: '0',
  PIN_WATCH_MS: '0',
};

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({ ...TEST_ENV, ...env });
}

export interface TestPorts {
  db: InMemoryDatabase;
  toolHealth: InMemoryToolHealthRepository;
  toolHealthAdmin: InMemoryToolHealthAdminRepository;
  eventRelay: InMemoryEventRelayRepository;
  outbox: InMemoryHealthEventOutbox;
  tenantSettings: InMemoryTenantSettingsRepository;
  maintenanceWindows: InMemoryMaintenanceWindowRepository;
  widerEvidence: InMemoryWiderEvidenceRepository;
  outcomeStats: InMemoryOutcomeStatsRepository;
}

/** Everything a service may be built from; every getter builds its object once per context. */
export class TestContext {
  readonly ports: TestPorts;
  readonly metrics = new RecordingMetrics();
  private readonly built = new Map<unknown, unknown>();

  constructor(
    readonly clock: FakeClock,
    readonly config: AppConfig,
  ) {
    const db = new InMemoryDatabase();
    this.ports = {
      db,
      toolHealth: new InMemoryToolHealthRepository(db),
      toolHealthAdmin: new InMemoryToolHealthAdminRepository(db),
      eventRelay: new InMemoryEventRelayRepository(db),
      outbox: new InMemoryHealthEventOutbox(),
      tenantSettings: new InMemoryTenantSettingsRepository(),
      maintenanceWindows: new InMemoryMaintenanceWindowRepository(),
      widerEvidence: new InMemoryWiderEvidenceRepository(),
      outcomeStats: new InMemoryOutcomeStatsRepository(),
    };
  }

  private once<T>(token: unknown, build: () => T): T {
    if (!this.built.has(token)) this.built.set(token, build());
    return this.built.get(token) as T;
  }

  /** Another service on this context (the same fakes, write path and clock), e.g. to arrange state through it. */
  service<T>(Service: abstract new (...args: never[]) => T): T {
    const build = BUILDERS.get(Service);
    if (!build) throw new Error(`newTestService: no builder for ${Service.name}; add one to BUILDERS in test/support/new-test-service.ts`);
    return this.once(Service, () => build(this) as T);
  }

  get relay(): EventRelay {
    return this.once(EventRelay, () => new EventRelay(this.ports.eventRelay, this.ports.outbox, this.config, this.eventScopeStatus));
  }

  get eventScopeStatus(): EventScopeStatus {
    return this.once(EventScopeStatus, () => new EventScopeStatus(this.ports.toolHealth, this.ports.maintenanceWindows, this.config));
  }

  get store(): HealthStore {
    return this.once(
      HealthStore,
      () =>
        new HealthStore(
          this.ports.toolHealth,
          this.ports.tenantSettings,
          this.relay,
          this.ports.eventRelay,
          this.ports.toolHealthAdmin,
          this.clock,
          this.config,
        ),
    );
  }

  get bookkeeping(): BookkeepingBuffer {
    return this.once(BookkeepingBuffer, () => new BookkeepingBuffer(this.ports.toolHealth, this.config));
  }

  get maintenance(): MaintenanceService {
    return this.once(
      MaintenanceService,
      () =>
        new MaintenanceService(
          this.ports.maintenanceWindows,
          this.relay,
          this.ports.toolHealth,
          this.clock,
          this.config,
          this.eventScopeStatus,
        ),
    );
  }

  /** Issue 39: counts in memory until `stats.flush()` (no timer runs here). */
  get stats(): OutcomeStatsRecorder {
    return this.once(OutcomeStatsRecorder, () => new OutcomeStatsRecorder(this.ports.outcomeStats, this.config));
  }

  /** Issue 39: the signals' snapshot, re-read by `signals.refresh()`. */
  get signals(): ToolSignalsService {
    return this.once(ToolSignalsService, () => new ToolSignalsService(this.ports.outcomeStats, this.stats, this.clock, this.config));
  }

  get widerEvidence(): WiderEvidenceService {
    return this.once(WiderEvidenceService, () => new WiderEvidenceService(this.ports.widerEvidence, this.relay, this.config));
  }
}

/** How each service under test is built from a context. A service's new constructor is adapted here, and only here. */
const BUILDERS = new Map<abstract new (...args: never[]) => unknown, (c: TestContext) => unknown>([
  [CooldownService, (c) => new CooldownService(c.store, c.ports.toolHealth, c.clock, c.config)],
  [DiagnosisService, (c) => new DiagnosisService(c.store)],
  [SystemWritesService, (c) => new SystemWritesService(c.store)],
  [TenantSettingsService, (c) => new TenantSettingsService(c.ports.tenantSettings, c.store, c.clock, c.config)],
  [CascadeService, (c) => new CascadeService(c.ports.toolHealth, c.clock, c.maintenance, c.signals)],
  [
    DispatchOutcomeService,
    (c) =>
      new DispatchOutcomeService(
        c.ports.toolHealth,
        c.store,
        c.bookkeeping,
        c.clock,
        c.metrics.asService(),
        c.maintenance,
        c.widerEvidence,
        c.stats,
        c.signals,
      ),
  ],
  [OutcomeBatchService, (c) => new OutcomeBatchService(c.service(DispatchOutcomeService), c.ports.toolHealth)],
  [MaintenanceService, (c) => c.maintenance],
  [WiderEvidenceService, (c) => c.widerEvidence],
  [HealthStore, (c) => c.store],
  [OutcomeStatsRecorder, (c) => c.stats],
  [ToolSignalsService, (c) => c.signals],
  [
    ToolStatsService,
    (c) => new ToolStatsService(c.ports.outcomeStats, c.ports.toolHealth, c.ports.maintenanceWindows, c.signals, c.clock, c.config),
  ],
]);

export interface TestService<T> extends TestContext {
  /** The service under test. */
  sut: T;
}

/**
 * `newTestService(CooldownService)`: the service, its fakes (`ports`), the clock (at T0 unless
 * `now` is given) and the config (TEST_ENV plus `env`). Fixtures go in through the fakes
 * (`ports.toolHealth.seed(aToolHealthDocument(...))`), results are read back from them.
 */
export function newTestService<T>(
  Service: abstract new (...args: never[]) => T,
  options: { env?: Record<string, string>; now?: Date | string } = {},
): TestService<T> {
  // Services log what they do (a window scheduled, a relay failing); a unit test's output is its assertions.
  Logger.overrideLogger(false);
  const context = new TestContext(new FakeClock(options.now ?? T0), testConfig(options.env));
  return Object.assign(context, { sut: context.service(Service) });
}
