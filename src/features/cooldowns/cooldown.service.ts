import { Injectable } from '@nestjs/common';
import { Clock } from '../../runtime/clock';
import { AppConfig } from '../../config/app-config';
import { ToolHealthClassification } from '../../domain/classification';
import { applyCooldown, assertFailureClassification, removeCooldown } from '../../domain/cooldown-policy';
import { isDueForProbe, sweepCooldowns } from '../../domain/cooldown-sweep';
import { changeCooldownWindow } from '../../domain/cooldown-window';
import { DomainError } from '../../domain/domain-error';
import { newDocument } from '../../domain/health-entry';
import { validateKey, tenantOf } from '../../domain/health-key';
import { cooldownOwner } from '../../domain/scope-of-evidence';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { HealthStore } from '../../write-path/health-store.service';
import { ChangeCooldownWindowDto, ClearCooldownDto, SetCooldownDto, SweepResultView } from './cooldown.dto';

const SWEEP_BATCH = 500;

/** §7 second row (the checker's setCooldown), the D9 sweep and the D11 probe listing. */
@Injectable()
export class CooldownService {
  constructor(
    private readonly store: HealthStore,
    private readonly repository: ToolHealthRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Only cooldowns[] changes; a key with no document gets a neutral OK one (D7). */
  async setCooldown(dto: SetCooldownDto): Promise<ToolHealthDocument> {
    const key = validateKey(dto);
    const classification = assertFailureClassification('classification', dto.classification as ToolHealthClassification);
    const tenantId = tenantOf(key, dto.tenantId);
    const userId = cooldownOwner(key, classification, dto.userId); // D18: 400 for a user-class one without its user
    const result = await this.store.write(
      key,
      tenantId,
      (env) => (current) =>
        applyCooldown(current ?? newDocument(key, env.now, tenantId), {
          errorSignature: dto.errorSignature,
          userId,
          classification,
          durationMs: dto.durationMs ?? undefined,
          now: env.now,
          graceMs: env.graceMs,
        }),
    );
    return result.after!;
  }

  /** Admin repair: forget one cooldown entirely, ladder included. */
  async clearCooldown(dto: ClearCooldownDto): Promise<ToolHealthDocument> {
    const key = validateKey(dto);
    const result = await this.store.write(
      key,
      null,
      (env) => (current) => (current ? removeCooldown(current, dto.errorSignature, dto.userId ?? null, env.now) : current),
    );
    if (!result.after || !result.written) {
      throw DomainError.notFound(`no cooldown ${dto.errorSignature} for user ${dto.userId ?? '(scope-wide)'} on that entry`);
    }
    return result.after;
  }

  /** A new window for one cooldown, without restarting it; NOT_FOUND when there is no such cooldown (P85). */
  async changeCooldownWindow(dto: ChangeCooldownWindowDto): Promise<ToolHealthDocument> {
    const key = validateKey(dto);
    const missing = () => DomainError.notFound(`no cooldown ${dto.errorSignature} for user ${dto.userId ?? '(scope-wide)'} on that entry`);
    const result = await this.store.write(key, null, (env) => (current) => {
      if (!current) throw missing();
      return changeCooldownWindow(current, {
        errorSignature: dto.errorSignature,
        userId: dto.userId ?? null,
        windowMs: dto.windowMs,
        now: env.now,
      });
    });
    return result.after!;
  }

  /** Delete entries expired longer than the grace period, in batches, until none are left (D9). */
  async sweep(): Promise<SweepResultView> {
    let documents = 0;
    let removed = 0;
    for (;;) {
      const now = this.clock.now();
      const cutoff = new Date(now.getTime() - this.config.cooldownGraceMs);
      const batch = await this.repository.findWithCooldownExpiredBefore(cutoff, SWEEP_BATCH);
      let progressed = false;
      for (const doc of batch) {
        const result = await this.store.write(
          doc,
          doc.tenantId,
          (env) => (current) => (current ? sweepCooldowns(current, env.now, env.graceMs) : current),
        );
        if (result.written && result.before && result.after) {
          progressed = true;
          documents++;
          removed += result.before.cooldowns.length - result.after.cooldowns.length;
        }
      }
      if (batch.length < SWEEP_BATCH || !progressed) return { documents, removed };
    }
  }

  /** What the next sweep deletes — entries holding cooldowns expired longer than the grace period ago (D9). */
  async dueForSweep(limit: number): Promise<{ toolHealth: ToolHealthDocument; cooldowns: ToolHealthDocument['cooldowns'] }[]> {
    const cutoff = this.clock.now().getTime() - this.config.cooldownGraceMs;
    const docs = await this.repository.findWithCooldownExpiredBefore(new Date(cutoff), limit);
    return docs.map((toolHealth) => ({
      toolHealth,
      cooldowns: toolHealth.cooldowns.filter((e) => e.nextSpawnAllowedAt.getTime() < cutoff),
    }));
  }

  async dueForProbe(limit = 100): Promise<ToolHealthDocument[]> {
    const now = this.clock.now();
    const candidates = await this.repository.findDownUncheckedSince(new Date(now.getTime() - this.config.probeDueAfterMs), limit);
    return candidates.filter((doc) => isDueForProbe(doc, now, this.config.probeDueAfterMs));
  }
}
