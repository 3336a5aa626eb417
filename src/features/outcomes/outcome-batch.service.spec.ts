import { aFailureReport, aSuccessReport } from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { ToolHealthClassification } from '../../domain/classification';
import { DomainError, DomainErrorCode } from '../../domain/domain-error';
import { FailureReason } from '../../domain/failure-check';
import { DispatchOutcomeService } from './dispatch-outcome.service';
import { OutcomeBatchService } from './outcome-batch.service';

const success = (overrides = {}) => ({ outcome: 'success', ...aSuccessReport(overrides) });
const failure = (overrides = {}) => ({ outcome: 'failure', ...aFailureReport(overrides) });

describe('OutcomeBatchService (service tier, D22)', () => {
  it('answers each report as DispatchOutcomeService answers it alone, in order', async () => {
    const items = [failure({ classification: ToolHealthClassification.TECHNICALLY_BROKEN }), failure(), success(), failure()];
    const batched = newTestService(OutcomeBatchService);
    const alone = newTestService(DispatchOutcomeService);
    const { results } = await batched.sut.reportBatch(items);
    const expected = [];
    for (const { outcome, ...report } of items) {
      expected.push(
        outcome === 'success'
          ? { status: 200, success: await alone.sut.reportSuccess(report) }
          : { status: 200, failure: await alone.sut.reportFailure(report as ReturnType<typeof aFailureReport>) },
      );
    }
    expect(results).toEqual(expected);
    expect(results.map((r) => r.failure?.reason ?? 'success')).toEqual([
      FailureReason.CLASSIFIED_BY_CHECKER,
      FailureReason.IN_COOLDOWN,
      'success',
      FailureReason.ELIGIBLE,
    ]);
  });

  it('refuses a bad report alone with the error its single route gives', async () => {
    const { sut } = newTestService(OutcomeBatchService);
    const { results } = await sut.reportBatch([
      success(),
      { outcome: 'failure', toolName: 'x' },
      42,
      success({ context: { userId: 'a b' } }),
    ]);
    expect(results.map((r) => [r.status, (r.error as { field?: string } | undefined)?.field])).toEqual([
      [200, undefined],
      [400, 'code'],
      [400, 'body'],
      [400, 'context.userId'],
    ]);
  });

  it('fails the whole batch with 503 when its one read fails, before applying anything', async () => {
    const { sut, ports } = newTestService(OutcomeBatchService);
    ports.toolHealth.failNext(new DomainError(DomainErrorCode.UNAVAILABLE, 'database unavailable'));
    await expect(sut.reportBatch([failure({ classification: ToolHealthClassification.TECHNICALLY_BROKEN })])).rejects.toMatchObject({
      code: DomainErrorCode.UNAVAILABLE,
    });
    expect(await ports.toolHealth.findManyByIds(['anything'])).toEqual(new Map());
  });

  it('an item whose write fails answers that error alone; the items around it keep their answers', async () => {
    const { sut, ports } = newTestService(OutcomeBatchService);
    // The batch's one read passes; the first write after it loses too many races.
    ports.toolHealth.failNext(undefined as unknown as Error, DomainError.conflict('too many concurrent writes; retry'));
    const { results } = await sut.reportBatch([
      success({ toolName: 'clean' }),
      failure({ classification: ToolHealthClassification.TECHNICALLY_BROKEN }),
      success({ toolName: 'clean' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 409, 200]);
    expect(results[1].error).toMatchObject({ statusCode: 409, error: DomainErrorCode.CONFLICT });
  });
});
