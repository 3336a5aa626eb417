import { Module, OnModuleInit } from '@nestjs/common';
import { MetricsModule } from '../../metrics/metrics.module';
import { MetricsService } from '../../metrics/metrics.service';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { ToolSignalEvents } from './tool-signal-events';
import { OutcomeStatsRecorder } from './outcome-stats-recorder.service';
import { ToolSignalsService } from './tool-signals.service';
import { ToolStatsController } from './tool-stats.controller';
import { ToolStatsResolver } from './tool-stats.resolver';
import { ToolStatsService } from './tool-stats.service';

/**
 * Issue 39: outcome statistics. The dispatcher's outcomes are counted by the recorder; the
 * signals' snapshot is read by the lookups, the annotation and the failure check; the stats and
 * uptime readers serve REST, GraphQL and the console.
 */
@Module({
  imports: [PersistenceModule, WritePathModule, MetricsModule],
  controllers: [ToolStatsController],
  providers: [OutcomeStatsRecorder, ToolSignalsService, ToolSignalEvents, ToolStatsService, ToolStatsResolver],
  exports: [OutcomeStatsRecorder, ToolSignalsService],
})
export class ToolStatsModule implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly recorder: OutcomeStatsRecorder,
    private readonly signals: ToolSignalsService,
  ) {}

  /** `/metrics` reads the totals, the signal counts and the watched tools from these two. */
  onModuleInit(): void {
    this.metrics.countToolStatsWith({
      totals: () => this.recorder.totals,
      keysInMemory: () => this.recorder.keysInMemory(),
      watchedTotals: () => this.recorder.watchedTools(),
      signalCounts: () => this.signals.signalCounts(),
      watchedRecent: () => this.signals.watched(),
    });
  }
}
