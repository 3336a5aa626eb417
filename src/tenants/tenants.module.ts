import { Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module';
import { StoreModule } from '../store/store.module';
import { TenantSettingsController } from './tenant-settings.controller';
import { TenantSettingsService } from './tenant-settings.service';

@Module({
  imports: [PersistenceModule, StoreModule],
  controllers: [TenantSettingsController],
  providers: [TenantSettingsService],
  exports: [TenantSettingsService],
})
export class TenantsModule {}
