import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { TenantSettingsController } from './tenant-settings.controller';
import { TenantSettingsResolver } from './tenant-settings.resolver';
import { TenantSettingsService } from './tenant-settings.service';

@Module({
  imports: [PersistenceModule, WritePathModule],
  controllers: [TenantSettingsController],
  providers: [TenantSettingsService, TenantSettingsResolver],
  exports: [TenantSettingsService],
})
export class TenantsModule {}
