import {
  MINUTE,
  SECOND,
  aCallContext,
  aCooldownEntry,
  aDownDocument,
  aFailureReport,
  aKeyAt,
  aMaintenanceWindow,
  aSuccessReport,
  aToolHealthDocument,
  at,
} from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { ToolHealthClassification } from '../../domain/classification';
import { FailureReason } from '../../domain/failure-check';
import { encodeKey } from '../../domain/health-key';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';
import { DispatchOutcomeService } from './dispatch-outcome.service';

const GLOBAL_ID = encodeKey(aKeyAt(Scope.GLOBAL));

describe('DispatchOutcomeService (service tier)', () => {
  describe('reportFailure', () => {
    it('a code that is not a tool fault reads and writes nothing (§3.1)', async () => {
      const { sut, ports, metrics } = newTestService(DispatchOutcomeService);
      ports.toolHealth.failNext(new Error('no read expected'));
      const outcome = await sut.reportFailure(aFailureReport({ code: ToolErrorCode.NOT_REGISTERED }));
      expect(outcome).toMatchObject({ spawn: false, reason: FailureReason.NOT_A_TOOL_FAULT, status: null, cooldown: null });
      expect(metrics.failureDecisions).toEqual([{ reason: FailureReason.NOT_A_TOOL_FAULT, spawned: false }]);
    });

    it('a first unclassified tool fault is eligible for a diagnosis and writes nothing', async () => {
      const { sut, ports } = newTestService(DispatchOutcomeService);
      const outcome = await sut.reportFailure(aFailureReport());
      expect(outcome).toMatchObject({
        spawn: true,
        reason: FailureReason.ELIGIBLE,
        status: ToolStatus.OK,
        coalescingKey: 'example-tool:http-502',
      });
      expect(ports.db.toolHealth.size).toBe(0);
    });

    it("the checker's classification sets the cooldown and answers when a diagnosis may spawn again", async () => {
      const { sut, ports } = newTestService(DispatchOutcomeService);
      const outcome = await sut.reportFailure(aFailureReport({ classification: ToolHealthClassification.INTERMITTENT }));
      expect(outcome).toMatchObject({
        spawn: false,
        reason: FailureReason.CLASSIFIED_BY_CHECKER,
        retryAt: at(30 * SECOND),
        retryAfterSeconds: 30,
      });
      const [stored] = ports.db.toolHealth.values();
      expect(stored.cooldowns).toEqual([expect.objectContaining({ errorSignature: 'http-502', windowMs: 30 * SECOND, hits: 0 })]);
      expect(ports.toolHealth.pendingEvents(stored._id).map((e) => e.type)).toEqual([HealthEventType.COOLDOWN_SET]);
    });

    it('a failure that meets an active cooldown is not eligible, and its hit is counted on the entry (D8, D10b)', async () => {
      const { sut, ports, metrics, clock } = newTestService(DispatchOutcomeService);
      ports.toolHealth.seed(aToolHealthDocument({ cooldowns: [aCooldownEntry()] }));
      clock.advance(10 * SECOND);
      const outcome = await sut.reportFailure(aFailureReport());
      expect(outcome).toMatchObject({
        spawn: false,
        reason: FailureReason.IN_COOLDOWN,
        reflectError: true,
        cooldown: { scope: Scope.GLOBAL, scopeId: null, errorSignature: 'http-502', userId: null },
        retryAfterSeconds: 20,
      });
      // BOOKKEEPING_FLUSH_MS=0: written before the answer; the hit is bookkeeping, no change of health (version moves, updatedAt stays).
      expect(ports.toolHealth.stored(GLOBAL_ID)).toMatchObject({
        version: 2,
        updatedAt: at(),
        cooldowns: [{ hits: 1, lastTriggeredAt: at(10 * SECOND) }],
      });
      expect(metrics.cooldownHits).toEqual([Scope.GLOBAL]);
    });

    it('a tool known DOWN is not eligible again', async () => {
      const { sut, ports } = newTestService(DispatchOutcomeService);
      ports.toolHealth.seed(aDownDocument());
      expect(await sut.reportFailure(aFailureReport())).toMatchObject({
        spawn: false,
        reason: FailureReason.KNOWN_DOWN,
        status: ToolStatus.DOWN,
      });
      expect(ports.toolHealth.stored(GLOBAL_ID)).toMatchObject({ lastFailureAt: at() });
    });

    it('under a maintenance window in force nothing is counted or written (D20)', async () => {
      const { sut, ports } = newTestService(DispatchOutcomeService, { now: at(90 * MINUTE) });
      ports.maintenanceWindows.seed(aMaintenanceWindow());
      const outcome = await sut.reportFailure(aFailureReport({ classification: ToolHealthClassification.INTERMITTENT }));
      expect(outcome).toMatchObject({ spawn: false, reason: FailureReason.UNDER_MAINTENANCE });
      expect(ports.db.toolHealth.size).toBe(0);
    });

    it('rejects a tool name that is not an id', async () => {
      const { sut } = newTestService(DispatchOutcomeService);
      await expect(sut.reportFailure(aFailureReport({ toolName: 'a b' }))).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'toolName',
      });
    });
  });

  describe('reportSuccess (§6 auto-clear)', () => {
    it('with nothing to disprove writes nothing', async () => {
      const { sut, ports } = newTestService(DispatchOutcomeService);
      ports.toolHealth.seed(aToolHealthDocument());
      expect(await sut.reportSuccess(aSuccessReport())).toEqual({ status: ToolStatus.OK, changed: [] });
      expect(ports.toolHealth.stored(GLOBAL_ID)).toMatchObject({ version: 1 });
    });

    it('a success disproves a DOWN entry in reach: back to OK by auto-clear, with its TECHNICALLY_BROKEN cooldown ended (an INTERMITTENT one stays)', async () => {
      const { sut, ports, clock } = newTestService(DispatchOutcomeService);
      ports.toolHealth.seed(
        aDownDocument({
          ...aKeyAt(Scope.PROJECT),
          cooldowns: [
            aCooldownEntry({ errorSignature: 'broken', lastClassification: ToolHealthClassification.TECHNICALLY_BROKEN }),
            aCooldownEntry({ errorSignature: 'flaky', lastClassification: ToolHealthClassification.INTERMITTENT }),
          ],
        }),
      );
      clock.advance(5 * SECOND);
      const outcome = await sut.reportSuccess(aSuccessReport());
      expect(outcome).toEqual({ status: ToolStatus.OK, changed: [{ scope: Scope.PROJECT, scopeId: 'project-1', status: ToolStatus.OK }] });
      const stored = ports.toolHealth.stored(encodeKey(aKeyAt(Scope.PROJECT)))!;
      expect(stored).toMatchObject({
        status: ToolStatus.OK,
        version: 2,
        lastDiagnosis: { classification: ToolHealthClassification.WORKING },
      });
      expect(stored.cooldowns.map((c) => [c.errorSignature, c.nextSpawnAllowedAt])).toEqual([
        ['broken', at(5 * SECOND)],
        ['flaky', at(30 * SECOND)],
      ]);
    });

    it("a success of another user leaves a user's own cooldown alone", async () => {
      const { sut, ports } = newTestService(DispatchOutcomeService);
      const userCooldown = aCooldownEntry({ userId: 'user-2', lastClassification: ToolHealthClassification.USER_SPECIFIC_TECHNICAL });
      ports.toolHealth.seed(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT), cooldowns: [userCooldown] }));
      expect(await sut.reportSuccess(aSuccessReport({ context: aCallContext({ userId: 'user-1' }) }))).toMatchObject({ changed: [] });
    });
  });
});
