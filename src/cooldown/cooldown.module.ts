import { Module } from '@nestjs/common';
import { BookkeepingBuffer } from './bookkeeping-buffer.service';
import { CooldownSweepJob } from './cooldown-sweep.job';
import { CooldownController } from './cooldown.controller';
import { CooldownService } from './cooldown.service';
import { DispatchOutcomeController } from './dispatch-outcome.controller';
import { DispatchOutcomeService } from './dispatch-outcome.service';

@Module({
  controllers: [DispatchOutcomeController, CooldownController],
  providers: [DispatchOutcomeService, CooldownService, BookkeepingBuffer, CooldownSweepJob],
  exports: [CooldownService, DispatchOutcomeService, BookkeepingBuffer],
})
export class CooldownModule {}
