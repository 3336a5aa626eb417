import { Module } from '@nestjs/common';
import { CooldownSweepJob } from './cooldown-sweep.job';
import { CooldownController } from './cooldown.controller';
import { CooldownService } from './cooldown.service';

@Module({
  controllers: [CooldownController],
  providers: [CooldownService, CooldownSweepJob],
  exports: [CooldownService],
})
export class CooldownModule {}
