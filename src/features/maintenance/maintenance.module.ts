import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { MaintenanceController } from './maintenance.controller';
import { MaintenanceResolver } from './maintenance.resolver';
import { MaintenanceService } from './maintenance.service';

/** Issue 16. The cascade (and through it the manifest) and the dispatcher's outcomes read the windows. */
@Module({
  imports: [PersistenceModule, WritePathModule],
  controllers: [MaintenanceController],
  providers: [MaintenanceService, MaintenanceResolver],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
