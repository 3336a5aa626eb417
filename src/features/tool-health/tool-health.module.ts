import { Module } from '@nestjs/common';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { PersistenceModule } from '../../persistence/persistence.module';
import { LookupsController } from './lookups.controller';
import { CascadeService } from './cascade.service';

@Module({
  imports: [PersistenceModule, MaintenanceModule],
  controllers: [LookupsController],
  providers: [CascadeService],
  exports: [CascadeService],
})
export class ToolHealthModule {}
