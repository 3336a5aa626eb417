import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { CooldownSweepJob } from './cooldown-sweep.job';
import { CooldownController } from './cooldown.controller';
import { CooldownService } from './cooldown.service';

@Module({
  imports: [PersistenceModule, WritePathModule],
  controllers: [CooldownController],
  providers: [CooldownService, CooldownSweepJob],
  exports: [CooldownService],
})
export class CooldownModule {}
