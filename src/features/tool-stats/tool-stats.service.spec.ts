import { newTestService } from '../../../test/support/new-test-service';
import { DAY_MS, HOUR_MS, MINUTE_MS, StatsResolution, floorTo, statsBucketId } from '../../domain/outcome-stats';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { DispatchOutcomeService } from '../outcomes/dispatch-outcome.service';
import { OutcomeStatsRecorder } from './outcome-stats-recorder.service';
import { ToolSignalsService } from './tool-signals.service';

describe('outcome statistics in the service tier (issue 39)', () => {
  it('count every report in memory and write one increment per hour and day document at the flush', async () => {
    const t = newTestService(DispatchOutcomeService);
    for (let i = 0; i < 30; i++) await t.sut.reportSuccess({ toolName: 'search', context: { tenantId: 'acme' }, durationMs: 100 + i });
    await t.sut.reportFailure({ toolName: 'search', code: ToolErrorCode.BACKEND_FAILED, errorSignature: 'http-502', durationMs: 5000 });
    expect(t.ports.outcomeStats.buckets.size).toBe(0);
    await t.stats.flush();
    // GLOBAL's hour and day, acme's hour: three documents, one update each.
    expect(t.ports.outcomeStats.updates).toBe(3);
    const now = t.clock.now().getTime();
    const hour = t.ports.outcomeStats.buckets.get(statsBucketId(StatsResolution.HOUR, 'search', null, floorTo(now, HOUR_MS)))!;
    expect(hour.total).toMatchObject({ ok: 30, fail: 1, timed: 31, codes: { BACKEND_FAILED: 1 } });
    const acme = t.ports.outcomeStats.buckets.get(statsBucketId(StatsResolution.HOUR, 'search', 'acme', floorTo(now, HOUR_MS)))!;
    expect(acme.total).toMatchObject({ ok: 30, fail: 0, timed: 30 });
    expect(t.ports.outcomeStats.buckets.has(statsBucketId(StatsResolution.DAY, 'search', 'acme', floorTo(now, DAY_MS)))).toBe(false);
  });

  it('keeps memory bounded: past the bounds a new key is dropped and counted, a known tool still counts', async () => {
    const t = newTestService(OutcomeStatsRecorder, { env: { STATS_MAX_TOOLS: '2', STATS_MAX_TENANT_KEYS: '1' } });
    const now = t.clock.now().getTime();
    t.sut.record('a', 't1', true, undefined, 10, now);
    t.sut.record('a', 't2', true, undefined, 10, now); // second tenant key: dropped, GLOBAL counted
    t.sut.record('b', null, true, undefined, null, now);
    t.sut.record('c', null, true, undefined, null, now); // third tool: dropped
    expect(t.sut.keysInMemory()).toBe(3);
    expect(t.sut.totals).toMatchObject({ droppedTools: 1, droppedTenantKeys: 1, successes: 4 });
    await t.sut.flush();
    expect(t.sut.keysInMemory()).toBe(0);
    const a = t.ports.outcomeStats.buckets.get(statsBucketId(StatsResolution.DAY, 'a', null, floorTo(now, DAY_MS)))!;
    expect(a.total.ok).toBe(2);
    // After the flush the bounds start over.
    t.sut.record('c', null, true, undefined, null, now);
    expect(t.sut.totals.droppedTools).toBe(1);
  });

  it('drops a flush the database refuses instead of retrying it (no double count), and says so', async () => {
    const t = newTestService(OutcomeStatsRecorder);
    t.ports.outcomeStats.increment = () => Promise.reject(new Error('database away'));
    t.sut.record('a', null, false, ToolErrorCode.BACKEND_FAILED, null, t.clock.now().getTime());
    await t.sut.flush();
    expect(t.sut.totals).toMatchObject({ flushFailures: 1, droppedMinutes: 1 });
    expect(t.sut.keysInMemory()).toBe(0);
  });

  it('judges signals from the stored minutes plus what this instance has not flushed yet', async () => {
    const t = newTestService(ToolSignalsService);
    const now = t.clock.now().getTime();
    for (let i = 0; i < 40; i++) t.stats.record('search', null, true, undefined, 1000, now - 2 * HOUR_MS);
    await t.stats.flush();
    for (let i = 0; i < 25; i++) t.stats.record('search', null, true, undefined, 9000, now - MINUTE_MS);
    const changes = await t.sut.refresh();
    expect(changes.map((c) => [c.toolName, c.signal, c.started])).toEqual([['search', 'SLOW', true]]);
    expect(t.sut.signalsFor('search')?.slow).not.toBeNull();
    expect(t.sut.signalsFor('other')).toBeNull();
    expect(t.sut.signalCounts()).toEqual({ failingOften: 0, slow: 1 });
    // The same counts flushed: the same judgement, no new change.
    await t.stats.flush();
    expect(await t.sut.refresh()).toEqual([]);
  });
});
