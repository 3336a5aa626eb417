import { Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module';
import { StoreModule } from '../store/store.module';
import { CooldownSweepJob } from './cooldown-sweep.job';
import { CooldownController } from './cooldown.controller';
import { CooldownService } from './cooldown.service';

@Module({
  imports: [PersistenceModule, StoreModule],
  controllers: [CooldownController],
  providers: [CooldownService, CooldownSweepJob],
  exports: [CooldownService],
})
export class CooldownModule {}
