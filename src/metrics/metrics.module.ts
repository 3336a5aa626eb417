import { Global, Module } from '@nestjs/common';
import { DocumentCounts } from './document-counts';
import { HttpMetricsHook } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** Prometheus `/metrics` (issue 7). Global, so the hot-path services can count without imports. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, DocumentCounts, HttpMetricsHook],
  exports: [MetricsService],
})
export class MetricsModule {}
