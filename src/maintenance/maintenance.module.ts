import { Global, Module } from '@nestjs/common';
import { MaintenanceController } from './maintenance.controller';
import { MaintenanceResolver } from './maintenance.resolver';
import { MaintenanceService } from './maintenance.service';

/** Issue 16. Global: the cascade, the manifest and the dispatcher's outcomes all read the windows. */
@Global()
@Module({
  controllers: [MaintenanceController],
  providers: [MaintenanceService, MaintenanceResolver],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
