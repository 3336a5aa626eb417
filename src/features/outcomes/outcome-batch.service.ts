import { Injectable, Logger } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../../domain/domain-error';
import { errorBody } from '../../errors/http-exception.filter';
import { toDomainError } from '../../errors/to-domain-error';
import { compileBodyValidator } from '../../errors/validation';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { BatchReads } from './batch-reads';
import { DispatchOutcomeService } from './dispatch-outcome.service';
import {
  BATCH_PATTERN_MESSAGES,
  BATCHED_FAILURE_SCHEMA,
  BATCHED_SUCCESS_SCHEMA,
  BatchedFailureReportDto,
  BatchedReport,
  BatchedSuccessReportDto,
  OutcomeBatchItemView,
  OutcomeBatchView,
  OutcomeKind,
} from './outcome-batch.dto';

const VALIDATE: Record<OutcomeKind, (item: unknown) => BatchedReport> = {
  [OutcomeKind.SUCCESS]: compileBodyValidator<BatchedSuccessReportDto>(BATCHED_SUCCESS_SCHEMA, BATCH_PATTERN_MESSAGES),
  [OutcomeKind.FAILURE]: compileBodyValidator<BatchedFailureReportDto>(BATCHED_FAILURE_SCHEMA, BATCH_PATTERN_MESSAGES),
};

/**
 * Many success and failure reports in one request (D22). Each item is answered exactly as its
 * single route would answer it — the same DispatchOutcomeService method, the same evaluation,
 * events and bookkeeping — or refused alone with the error its single route would give. The
 * batch pays once for what a request costs (HTTP, the pipeline, the key) and reads the cascades
 * of all its items in one `$in`; items run one after the other, in order, so two reports about
 * one key are applied in the order they were sent.
 */
@Injectable()
export class OutcomeBatchService {
  private readonly logger = new Logger(OutcomeBatchService.name);

  constructor(
    private readonly outcomes: DispatchOutcomeService,
    private readonly repository: ToolHealthRepository,
  ) {}

  async reportBatch(items: readonly unknown[]): Promise<OutcomeBatchView> {
    // Each item checked and its call prepared once; an item refused here is answered in its turn
    // with the error its single route gives first.
    const prepared = items.map((item) =>
      attempt(() => {
        const report = checkItem(item);
        return { report, call: this.outcomes.prepare(report) };
      }),
    );
    const ids = new Set<string>();
    for (const item of prepared) {
      if (!item.ok) continue;
      const { report, call } = item.value;
      for (const id of this.outcomes.idsToRead(call, report.outcome === OutcomeKind.FAILURE ? report.code : undefined)) ids.add(id);
    }
    // The one read: a database that is away fails the whole batch (503) before anything is applied.
    const reads = new BatchReads(await this.repository.findManyByIds([...ids]));

    const results: OutcomeBatchItemView[] = [];
    for (const item of prepared) {
      if (!item.ok) {
        results.push(this.refused(item.error));
        continue;
      }
      const { report, call } = item.value;
      try {
        if (report.outcome === OutcomeKind.SUCCESS) {
          // The item is its single route's body plus `outcome`, which no report reads: it goes as it is.
          results.push({ status: 200, success: await this.outcomes.reportSuccess(report, reads, call) });
        } else {
          results.push({ status: 200, failure: await this.outcomes.reportFailure(report, reads, call) });
        }
      } catch (error) {
        results.push(this.refused(error));
      }
    }
    return { results };
  }

  private refused(error: unknown): OutcomeBatchItemView {
    const domain = toDomainError(error);
    if (domain) {
      const body = errorBody(domain);
      return { status: body.statusCode, error: { ...body } };
    }
    // A bug, not the client's mistake: that item alone answers 500, the ones already applied keep their answers.
    this.logger.error(error instanceof Error ? error.stack : String(error));
    return { status: 500, error: { statusCode: 500, error: 'INTERNAL', message: 'internal error' } };
  }
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

function attempt<T>(run: () => T): Attempt<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function checkItem(item: unknown): BatchedReport {
  const kind = (item as { outcome?: unknown } | null)?.outcome;
  if (kind !== OutcomeKind.SUCCESS && kind !== OutcomeKind.FAILURE) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return VALIDATE[OutcomeKind.SUCCESS](item); // "body: must be a JSON object"
    throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, 'outcome: must be one of success, failure', 'outcome');
  }
  return VALIDATE[kind](item);
}
