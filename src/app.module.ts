import { Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { CascadeModule } from './cascade/cascade.module';
import { ConfigModule } from './config/config.module';
import { CooldownModule } from './cooldown/cooldown.module';
import { DiagnosisModule } from './diagnosis/diagnosis.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { ManifestModule } from './manifest/manifest.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { OpsModule } from './ops/ops.module';
import { OutcomeModule } from './outcome/outcome.module';
import { PersistenceModule } from './persistence/persistence.module';
import { StoreModule } from './store/store.module';
import { TenantsModule } from './tenants/tenants.module';
import { WiderEvidenceModule } from './wider-evidence/wider-evidence.module';

@Module({
  imports: [
    ConfigModule,
    PersistenceModule,
    StoreModule,
    MaintenanceModule,
    WiderEvidenceModule,
    AuthModule,
    IdempotencyModule,
    OpsModule,
    HealthModule,
    CascadeModule,
    TenantsModule,
    OutcomeModule,
    CooldownModule,
    DiagnosisModule,
    EventsModule,
    AdminModule,
    ManifestModule,
    MetricsModule,
    McpModule,
  ],
})
export class AppModule {}
