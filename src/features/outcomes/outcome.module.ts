import { Module } from '@nestjs/common';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { MetricsModule } from '../../metrics/metrics.module';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { WiderEvidenceModule } from '../wider-evidence/wider-evidence.module';
import { ToolStatsModule } from '../tool-stats/tool-stats.module';
import { BookkeepingBuffer } from './bookkeeping-buffer.service';
import { DispatchOutcomeController } from './dispatch-outcome.controller';
import { DispatchOutcomeService } from './dispatch-outcome.service';
import { OutcomeBatchService } from './outcome-batch.service';
import { FailureCheckResolver } from './failure-check.resolver';

/** The dispatcher's hot path: `POST /v1/outcomes/{success,failure,batch}` and the buffered bookkeeping (D10b). */
@Module({
  imports: [PersistenceModule, WritePathModule, MaintenanceModule, WiderEvidenceModule, MetricsModule, ToolStatsModule],
  controllers: [DispatchOutcomeController],
  providers: [DispatchOutcomeService, OutcomeBatchService, BookkeepingBuffer, FailureCheckResolver],
})
export class OutcomeModule {}
