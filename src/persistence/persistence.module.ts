import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import mongoose from 'mongoose';
import { AppConfig } from '../config/app-config';
import { ConnectionWatchdog } from '../database/connection-watchdog';
import { DatabaseLiveness } from '../database/database-liveness';
import { EventRelayRepository } from './health-events/event-relay.repository';
import { HealthEventOutbox } from './health-events/health-event.outbox';
import { MongoEventRelayRepository } from './health-events/mongo-event-relay.repository';
import { IndexBootstrap } from '../database/index-bootstrap';
import { HealthEventRecord, HealthEventSchema } from './health-events/health-event.schema';
import { MongoHealthEventOutbox } from './health-events/mongo-health-event.outbox';
import { MongoTenantSettingsRepository } from './tenant-settings/mongo-tenant-settings.repository';
import { CalendarFeedTokenRepository } from './calendar-feed-tokens/calendar-feed-token.repository';
import { CalendarFeedTokenRecord, CalendarFeedTokenSchema } from './calendar-feed-tokens/calendar-feed-token.schema';
import { MongoCalendarFeedTokenRepository } from './calendar-feed-tokens/mongo-calendar-feed-token.repository';
import { MongoToolHealthAdminRepository } from './tool-health/mongo-tool-health-admin.repository';
import { MongoToolHealthRepository } from './tool-health/mongo-tool-health.repository';
import { installMongodbWriteGuard } from '../database/mongodb-write-guard';
import { TenantSettingsRepository } from './tenant-settings/tenant-settings.repository';
import { TenantSettingsRecord, TenantSettingsSchema } from './tenant-settings/tenant-settings.schema';
import { ToolHealthAdminRepository } from './tool-health/tool-health-admin.repository';
import { ToolHealthRepository } from './tool-health/tool-health.repository';
import { ToolHealthRecord, ToolHealthSchema } from './tool-health/tool-health.schema';
import { PresenceBackfill } from './presence-backfill';
import { ToolPresenceRecord, ToolPresenceSchema } from './tool-presence/tool-presence.schema';
// Issue 16 (maintenance windows, wider evidence).
import { MaintenanceWindowRepository } from './maintenance-windows/maintenance-window.repository';
import { MaintenanceWindowRecord, MaintenanceWindowSchema } from './maintenance-windows/maintenance-window.schema';
import { MongoMaintenanceWindowRepository } from './maintenance-windows/mongo-maintenance-window.repository';
import { MongoWiderEvidenceRepository } from './wider-evidence/mongo-wider-evidence.repository';
import { WiderEvidenceBucketRecord, WiderEvidenceBucketSchema } from './wider-evidence/wider-evidence-bucket.schema';
import { WiderEvidenceRepository } from './wider-evidence/wider-evidence.repository';
// Issue 39 (outcome statistics).
import { MongoOutcomeStatsRepository } from './outcome-stats/mongo-outcome-stats.repository';
import { OutcomeStatsRepository } from './outcome-stats/outcome-stats.repository';
import { OutcomeStatsRecord, OutcomeStatsSchema } from './outcome-stats/outcome-stats.schema';
// D24 (webhooks).
import { MongoWebhookEndpointRepository } from './webhook-endpoints/mongo-webhook-endpoint.repository';
import { WebhookEndpointRepository } from './webhook-endpoints/webhook-endpoint.repository';
import { WebhookEndpointRecord, WebhookEndpointSchema } from './webhook-endpoints/webhook-endpoint.schema';
import { MongoWebhookDeliveryRepository } from './webhook-deliveries/mongo-webhook-delivery.repository';
import { WebhookDeliveryRepository } from './webhook-deliveries/webhook-delivery.repository';
import { WebhookDeliveryRecord, WebhookDeliverySchema } from './webhook-deliveries/webhook-delivery.schema';

// No `$` operator or unknown path can reach a query from client input.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', 'throw');
// A write to a connection the database just dropped must fail, not hang (P21).
installMongodbWriteGuard();

@Module({
  imports: [
    MongooseModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        uri: config.mongodbUri,
        // Fail fast with a 503 rather than queue requests while the database is away.
        bufferCommands: false,
        serverSelectionTimeoutMS: config.dbServerSelectionTimeoutMs,
        connectTimeoutMS: 2000,
        // Bounds on a silent database (frozen, black hole) (P41). A request answers at its
        // deadline anyway; these free the connections and the per-key locks behind them. The
        // wait for a pooled connection is bounded as long: a burst on a busy database queues.
        socketTimeoutMS: config.dbSocketTimeoutMs,
        waitQueueTimeoutMS: config.dbSocketTimeoutMs,
        monitorCommands: config.dbMonitorCommands,
        // Built one model at a time by IndexBootstrap (mongo-java-server#195).
        autoIndex: false,
      }),
    }),
    MongooseModule.forFeature([
      { name: ToolHealthRecord.name, schema: ToolHealthSchema },
      { name: TenantSettingsRecord.name, schema: TenantSettingsSchema },
      { name: CalendarFeedTokenRecord.name, schema: CalendarFeedTokenSchema },
      { name: HealthEventRecord.name, schema: HealthEventSchema },
      { name: ToolPresenceRecord.name, schema: ToolPresenceSchema },
      { name: MaintenanceWindowRecord.name, schema: MaintenanceWindowSchema },
      { name: WiderEvidenceBucketRecord.name, schema: WiderEvidenceBucketSchema },
      { name: WebhookEndpointRecord.name, schema: WebhookEndpointSchema },
      { name: WebhookDeliveryRecord.name, schema: WebhookDeliverySchema },
      { name: OutcomeStatsRecord.name, schema: OutcomeStatsSchema },
    ]),
  ],
  providers: [
    { provide: ToolHealthRepository, useClass: MongoToolHealthRepository },
    { provide: TenantSettingsRepository, useClass: MongoTenantSettingsRepository },
    { provide: CalendarFeedTokenRepository, useClass: MongoCalendarFeedTokenRepository },
    { provide: HealthEventOutbox, useClass: MongoHealthEventOutbox },
    { provide: ToolHealthAdminRepository, useClass: MongoToolHealthAdminRepository },
    { provide: MaintenanceWindowRepository, useClass: MongoMaintenanceWindowRepository },
    { provide: WiderEvidenceRepository, useClass: MongoWiderEvidenceRepository },
    { provide: EventRelayRepository, useClass: MongoEventRelayRepository },
    { provide: WebhookEndpointRepository, useClass: MongoWebhookEndpointRepository },
    { provide: WebhookDeliveryRepository, useClass: MongoWebhookDeliveryRepository },
    { provide: OutcomeStatsRepository, useClass: MongoOutcomeStatsRepository },
    ConnectionWatchdog,
    IndexBootstrap,
    PresenceBackfill,
    DatabaseLiveness,
  ],
  exports: [
    ToolHealthRepository,
    TenantSettingsRepository,
    CalendarFeedTokenRepository,
    HealthEventOutbox,
    ToolHealthAdminRepository,
    MaintenanceWindowRepository,
    WiderEvidenceRepository,
    DatabaseLiveness,
    EventRelayRepository,
    WebhookEndpointRepository,
    WebhookDeliveryRepository,
    OutcomeStatsRepository,
  ],
})
export class PersistenceModule {}
