import { Module } from '@nestjs/common';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { PersistenceModule } from '../persistence/persistence.module';
import { CascadeController } from './cascade.controller';
import { CascadeService } from './cascade.service';

@Module({
  imports: [PersistenceModule, MaintenanceModule],
  controllers: [CascadeController],
  providers: [CascadeService],
  exports: [CascadeService],
})
export class CascadeModule {}
