import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { EventsModule } from '../events/events.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { CascadeService } from './cascade.service';
import { ToolStatsModule } from '../tool-stats/tool-stats.module';
import { LookupsController } from './lookups.controller';
import { NodeResolver } from './node.resolver';
import { ToolHealthReadsService } from './tool-health-reads.service';
import { ToolHealthRepairsResolver } from './tool-health-repairs.resolver';
import { ToolHealthRepairsService } from './tool-health-repairs.service';
import { ToolHealthResolver } from './tool-health.resolver';

/** The health entries: REST lookups (§9), the admin API's reads and repairs (pins, deletes). */
@Module({
  imports: [PersistenceModule, WritePathModule, MaintenanceModule, EventsModule, ToolStatsModule],
  controllers: [LookupsController],
  providers: [
    CascadeService,
    ToolHealthReadsService,
    ToolHealthRepairsService,
    ToolHealthResolver,
    ToolHealthRepairsResolver,
    NodeResolver,
  ],
  exports: [CascadeService],
})
export class ToolHealthModule {}
