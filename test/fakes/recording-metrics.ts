import { FailureReason } from '../../src/domain/failure-check';
import { Scope } from '../../src/domain/scope';
import type { MetricsService } from '../../src/metrics/metrics.service';

/**
 * The two counters the failure path moves, recorded instead of registered: the real
 * MetricsService starts prom-client's default collectors, which a unit test has no use for.
 */
export class RecordingMetrics implements Pick<MetricsService, 'cooldownHit' | 'failureDecision'> {
  readonly cooldownHits: Scope[] = [];
  readonly failureDecisions: { reason: FailureReason; spawned: boolean }[] = [];

  cooldownHit(scope: Scope): void {
    this.cooldownHits.push(scope);
  }

  failureDecision(reason: FailureReason, spawned: boolean): void {
    this.failureDecisions.push({ reason, spawned });
  }

  /** Where a MetricsService is injected (only these two methods are called on the failure path). */
  asService(): MetricsService {
    return this as unknown as MetricsService;
  }
}
