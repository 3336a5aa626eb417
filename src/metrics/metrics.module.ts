import { Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module';
import { DocumentCounts } from './document-counts';
import { HttpMetricsHook } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** Prometheus `/metrics` (issue 7); the dispatcher's outcomes count through MetricsService. */
@Module({
  imports: [PersistenceModule],
  controllers: [MetricsController],
  providers: [MetricsService, DocumentCounts, HttpMetricsHook],
  exports: [MetricsService],
})
export class MetricsModule {}
