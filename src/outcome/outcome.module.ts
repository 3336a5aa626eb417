import { Module } from '@nestjs/common';
import { BookkeepingBuffer } from './bookkeeping-buffer.service';
import { DispatchOutcomeController } from './dispatch-outcome.controller';
import { DispatchOutcomeService } from './dispatch-outcome.service';

/** The dispatcher's hot path: `POST /v1/outcomes/{success,failure}` and the buffered bookkeeping (D10b). */
@Module({
  controllers: [DispatchOutcomeController],
  providers: [DispatchOutcomeService, BookkeepingBuffer],
})
export class OutcomeModule {}
