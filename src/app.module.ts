import { Module } from '@nestjs/common';
import { AdminApiModule } from './graphql/admin-api.module';
import { AuthModule } from './auth/auth.module';
import { ToolHealthModule } from './features/tool-health/tool-health.module';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { CooldownModule } from './features/cooldowns/cooldown.module';
import { DiagnosisModule } from './features/diagnoses/diagnosis.module';
import { EventsModule } from './features/events/events.module';
import { SystemWritesModule } from './features/system-writes/system-writes.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { MaintenanceModule } from './features/maintenance/maintenance.module';
import { ManifestModule } from './features/manifest/manifest.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { OpsModule } from './ops/ops.module';
import { OutcomeModule } from './features/outcomes/outcome.module';
import { PersistenceModule } from './persistence/persistence.module';
import { WritePathModule } from './write-path/write-path.module';
import { TenantsModule } from './features/tenants/tenants.module';
import { WiderEvidenceModule } from './features/wider-evidence/wider-evidence.module';
import { WebhooksModule } from './features/webhooks/webhooks.module';
import { ToolStatsModule } from './features/tool-stats/tool-stats.module';

@Module({
  imports: [
    ConfigModule,
    PersistenceModule,
    WritePathModule,
    MaintenanceModule,
    WiderEvidenceModule,
    AuthModule,
    IdempotencyModule,
    OpsModule,
    SystemWritesModule,
    ToolHealthModule,
    TenantsModule,
    OutcomeModule,
    ToolStatsModule,
    CooldownModule,
    DiagnosisModule,
    EventsModule,
    AdminApiModule,
    ManifestModule,
    MetricsModule,
    McpModule,
    ConsoleModule,
    WebhooksModule,
  ],
})
export class AppModule {}
