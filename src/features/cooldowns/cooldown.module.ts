import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { CooldownSweepJob } from './cooldown-sweep.job';
import { CooldownController } from './cooldown.controller';
import { CooldownService } from './cooldown.service';
import { CooldownsResolver } from './cooldowns.resolver';
import { ProbesController } from './probes.controller';

/** §6 cooldowns (REST and admin API), the D9 sweep and its job, and the D11 probe listing. */
@Module({
  imports: [PersistenceModule, WritePathModule],
  controllers: [CooldownController, ProbesController],
  providers: [CooldownService, CooldownSweepJob, CooldownsResolver],
  exports: [CooldownService],
})
export class CooldownModule {}
