import {
  HOUR,
  MINUTE,
  SECOND,
  aChangeCooldownWindow,
  aClearCooldown,
  aCooldownEntry,
  aDownDocument,
  aHealthKey,
  aKeyAt,
  aPin,
  aSetCooldown,
  aToolHealthDocument,
  at,
} from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { ToolHealthClassification } from '../../domain/classification';
import { encodeKey } from '../../domain/health-key';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { CooldownService } from './cooldown.service';

const ID = encodeKey(aHealthKey());

describe('CooldownService (service tier)', () => {
  describe('setCooldown (§7 second row)', () => {
    it('on a key without a document stores a neutral OK one holding only the cooldown, and commits COOLDOWN_SET', async () => {
      const { sut, ports } = newTestService(CooldownService);
      await sut.setCooldown(aSetCooldown());
      expect(ports.toolHealth.stored(ID)).toMatchObject({
        status: ToolStatus.OK,
        history: [],
        lastDiagnosis: null,
        version: 1,
        cooldowns: [aCooldownEntry({ nextSpawnAllowedAt: at(30 * SECOND), windowMs: 30 * SECOND })],
      });
      expect(ports.toolHealth.pendingEvents(ID).map((e) => e.type)).toEqual([HealthEventType.COOLDOWN_SET]);
    });

    it('climbs the INTERMITTENT ladder (×4) on each repetition after expiry, and a write while active changes nothing but the class', async () => {
      const { sut, clock, ports } = newTestService(CooldownService);
      const windowAfter = async () => (await sut.setCooldown(aSetCooldown())).cooldowns[0].windowMs;
      expect(await windowAfter()).toBe(30 * SECOND);
      clock.advance(10 * SECOND); // still active
      expect(await windowAfter()).toBe(30 * SECOND);
      expect(ports.toolHealth.stored(ID)!.cooldowns[0].nextSpawnAllowedAt).toEqual(at(30 * SECOND));
      clock.set(at(31 * SECOND));
      expect(await windowAfter()).toBe(2 * MINUTE);
      clock.advance(2 * MINUTE + SECOND);
      expect(await windowAfter()).toBe(8 * MINUTE);
    });

    it('caps the ladder at its maximum (INTERMITTENT: 2 h)', async () => {
      const { sut, ports } = newTestService(CooldownService, { now: at(2 * HOUR) });
      ports.toolHealth.seed(aToolHealthDocument({ cooldowns: [aCooldownEntry({ windowMs: HOUR, nextSpawnAllowedAt: at(HOUR) })] }));
      const doc = await sut.setCooldown(aSetCooldown());
      expect(doc.cooldowns[0]).toMatchObject({ windowMs: 2 * HOUR, nextSpawnAllowedAt: at(4 * HOUR) });
    });

    it('restarts the ladder once the entry expired longer ago than the grace period', async () => {
      const { sut, ports } = newTestService(CooldownService, { env: { COOLDOWN_GRACE_MS: String(HOUR) }, now: at(3 * HOUR) });
      ports.toolHealth.seed(aToolHealthDocument({ cooldowns: [aCooldownEntry({ windowMs: 8 * MINUTE, nextSpawnAllowedAt: at(HOUR) })] }));
      expect((await sut.setCooldown(aSetCooldown())).cooldowns[0].windowMs).toBe(30 * SECOND);
    });

    it('an explicit duration wins over the ladder, even while the cooldown runs', async () => {
      const { sut } = newTestService(CooldownService);
      await sut.setCooldown(aSetCooldown());
      const doc = await sut.setCooldown(aSetCooldown({ durationMs: 10 * MINUTE }));
      expect(doc.cooldowns).toEqual([expect.objectContaining({ windowMs: 10 * MINUTE, nextSpawnAllowedAt: at(10 * MINUTE) })]);
    });

    it('refuses WORKING (no failure class) and a user-class cooldown without its user, writing nothing', async () => {
      const { sut, ports } = newTestService(CooldownService);
      await expect(sut.setCooldown(aSetCooldown({ classification: ToolHealthClassification.WORKING }))).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'classification',
      });
      await expect(sut.setCooldown(aSetCooldown({ classification: ToolHealthClassification.USER_INPUT }))).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'userId',
      });
      expect(ports.db.toolHealth.size).toBe(0);
    });

    it('a user-class cooldown at USER scope belongs to that user (D18)', async () => {
      const { sut } = newTestService(CooldownService);
      const doc = await sut.setCooldown(aSetCooldown({ ...aKeyAt(Scope.USER), classification: ToolHealthClassification.USER_INPUT }));
      expect(doc.cooldowns[0]).toMatchObject({ userId: 'user-1', windowMs: 5 * MINUTE });
    });
  });

  describe('clearCooldown and changeCooldownWindow', () => {
    it('clearCooldown forgets the entry, ladder included', async () => {
      const { sut, ports } = newTestService(CooldownService);
      ports.toolHealth.seed(aToolHealthDocument({ cooldowns: [aCooldownEntry(), aCooldownEntry({ errorSignature: 'other' })] }));
      const doc = await sut.clearCooldown(aClearCooldown());
      expect(doc.cooldowns.map((c) => c.errorSignature)).toEqual(['other']);
      expect(ports.toolHealth.stored(ID)).toMatchObject({ version: 2 });
    });

    it('clearCooldown is NOT_FOUND for a missing document or entry (user-specific ≠ scope-wide)', async () => {
      const { sut, ports } = newTestService(CooldownService);
      await expect(sut.clearCooldown(aClearCooldown())).rejects.toMatchObject({ code: 'NOT_FOUND' });
      ports.toolHealth.seed(aToolHealthDocument({ cooldowns: [aCooldownEntry()] }));
      await expect(sut.clearCooldown(aClearCooldown({ userId: 'user-1' }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(ports.toolHealth.stored(ID)).toMatchObject({ version: 1 });
    });

    it('changeCooldownWindow sets a new window without restarting the cooldown; NOT_FOUND without one', async () => {
      const { sut, ports } = newTestService(CooldownService);
      await expect(sut.changeCooldownWindow(aChangeCooldownWindow())).rejects.toMatchObject({ code: 'NOT_FOUND' });
      ports.toolHealth.seed(aToolHealthDocument({ cooldowns: [aCooldownEntry()] }));
      const doc = await sut.changeCooldownWindow(aChangeCooldownWindow({ windowMs: 10 * MINUTE }));
      expect(doc.cooldowns[0]).toMatchObject({ windowMs: 10 * MINUTE });
    });
  });

  describe('sweep (D9) and the probe list (D11)', () => {
    it('deletes entries expired longer than the grace period, keeps the others, and counts both', async () => {
      const { sut, ports } = newTestService(CooldownService, { env: { COOLDOWN_GRACE_MS: String(HOUR) }, now: at(3 * HOUR) });
      ports.toolHealth.seed(
        aToolHealthDocument({
          toolName: 'a',
          cooldowns: [
            aCooldownEntry({ errorSignature: 'old', nextSpawnAllowedAt: at(HOUR) }),
            aCooldownEntry({ errorSignature: 'in-grace', nextSpawnAllowedAt: at(2.5 * HOUR) }),
          ],
        }),
        aToolHealthDocument({ toolName: 'b', cooldowns: [aCooldownEntry({ nextSpawnAllowedAt: at(MINUTE) })] }),
        aToolHealthDocument({ toolName: 'c', cooldowns: [aCooldownEntry({ nextSpawnAllowedAt: at(4 * HOUR) })] }),
      );
      expect(await sut.dueForSweep(10)).toEqual([
        expect.objectContaining({ cooldowns: [expect.objectContaining({ errorSignature: 'old' })] }),
        expect.objectContaining({ cooldowns: [expect.objectContaining({ errorSignature: 'http-502' })] }),
      ]);
      expect(await sut.sweep()).toEqual({ documents: 2, removed: 2 });
      const left = [...ports.db.toolHealth.values()].map((r) => [r.toolName, r.cooldowns.map((c) => c.errorSignature)]);
      expect(left).toEqual([
        ['a', ['in-grace']],
        ['b', []],
        ['c', ['http-502']],
      ]);
      expect(await sut.sweep()).toEqual({ documents: 0, removed: 0 });
    });

    it('lists DOWN entries without an estimate nobody looked at for PROBE_DUE_AFTER_MS, pinned ones left out', async () => {
      const { sut, ports } = newTestService(CooldownService, { env: { PROBE_DUE_AFTER_MS: String(30 * MINUTE) }, now: at(HOUR) });
      ports.toolHealth.seed(
        aDownDocument({ toolName: 'stale', lastCheckedAt: at(0) }),
        aDownDocument({ toolName: 'fresh', lastCheckedAt: at(45 * MINUTE) }),
        aDownDocument({ toolName: 'estimated', lastCheckedAt: at(0), expectedRecoveryAt: at(2 * HOUR) }),
        aDownDocument({
          toolName: 'pinned',
          lastCheckedAt: at(0),
          pin: aPin({ until: at(2 * HOUR) }),
        }),
      );
      expect((await sut.dueForProbe()).map((d) => d.toolName)).toEqual(['stale']);
    });
  });
});
