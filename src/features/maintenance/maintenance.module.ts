import { Module, OnModuleInit } from '@nestjs/common';
import { MetricsModule } from '../../metrics/metrics.module';
import { MetricsService } from '../../metrics/metrics.service';
import { PersistenceModule } from '../../persistence/persistence.module';
import { Clock } from '../../runtime/clock';
import { WritePathModule } from '../../write-path/write-path.module';
import { CalendarFeedAccess } from './calendar-feed-access.service';
import { CalendarFeedTokensController } from './calendar-feed-tokens.controller';
import { MaintenanceCalendarController } from './maintenance-calendar.controller';
import { MaintenanceController } from './maintenance.controller';
import { CalendarFeedTokensResolver } from './calendar-feed-tokens.resolver';
import { MaintenanceResolver } from './maintenance.resolver';
import { MaintenanceService } from './maintenance.service';

/** Issue 16. The cascade (and through it the manifest) and the dispatcher's outcomes read the windows. */
@Module({
  imports: [PersistenceModule, WritePathModule, MetricsModule],
  controllers: [MaintenanceCalendarController, CalendarFeedTokensController, MaintenanceController],
  providers: [MaintenanceService, MaintenanceResolver, CalendarFeedTokensResolver, CalendarFeedAccess],
  exports: [MaintenanceService],
})
export class MaintenanceModule implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly service: MaintenanceService,
    private readonly clock: Clock,
  ) {}

  /** `/metrics` counts the windows in force from this instance's snapshot (P193). */
  onModuleInit(): void {
    this.metrics.countMaintenanceInForceWith(() => this.service.inForceCount(this.clock.now()));
  }
}
