import { Injectable } from '@nestjs/common';
import { ToolHealthClassification } from '../../domain/classification';
import { applyCooldown, assertFailureClassification } from '../../domain/cooldown-policy';
import { DiagnosisVerdict, applyDiagnosis, clearEntry, cooldownRefused } from '../../domain/diagnosis-effects';
import { MAX_COOLDOWN_ENTRIES } from '../../domain/cooldown-policy';
import { newDocument } from '../../domain/health-entry';
import { describeKey, validateKey, tenantOf } from '../../domain/health-key';
import { DomainError } from '../../domain/domain-error';
import { cooldownOwner } from '../../domain/scope-of-evidence';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { HealthStore } from '../../write-path/health-store.service';
import { AgrajagToolName } from './agrajag-tools';
import { validateAgrajagArguments } from './agrajag-arguments';
import { HealthKeyArguments, SetCooldownArguments, SetUnavailableArguments } from './agrajag-arguments.dto';
import { AgrajagToolResultView, RecordDiagnosisDto } from './diagnosis.dto';

/** A verdict as the API receives it; the store supplies the moment and the tenant's limits. */
export type Verdict = Omit<DiagnosisVerdict, 'now' | 'historyLimit' | 'graceMs'>;

/** §7 third row: the diagnosis engine's verdicts, applied per D11. */
@Injectable()
export class DiagnosisService {
  constructor(private readonly store: HealthStore) {}

  /** The stored entry, and (D20) why the verdict's cooldown was refused while its status was recorded; null when it was not. */
  async recordDiagnosis(dto: RecordDiagnosisDto): Promise<{ entry: ToolHealthDocument | null; cooldownRefused: string | null }> {
    const key = validateKey(dto);
    const verdict: Verdict = { ...dto, key, note: dto.note ?? null, durationMs: dto.durationMs ?? undefined };
    const entry = await this.apply(verdict);
    return { entry, cooldownRefused: refusalOf(verdict, entry) };
  }

  /**
   * The four Agrajag tools, their arguments validated against the schema they publish; past that
   * check, `args` is the JSON its argument class describes (P115).
   */
  async invokeTool(name: string, args: object, by: string): Promise<AgrajagToolResultView> {
    validateAgrajagArguments(name, args);
    const { scope, scopeId, toolName, note: given } = args as HealthKeyArguments & { note?: string };
    const key = validateKey({ scope, scopeId, toolName });
    const note = given ?? null;
    const tool = name as AgrajagToolName;
    switch (tool) {
      case AgrajagToolName.SET_UNAVAILABLE: {
        const a = args as SetUnavailableArguments;
        const verdict: Verdict = {
          key,
          by,
          note,
          classification: a.classification,
          expectedRecoveryAt: a.expectedRecoveryAt ? new Date(a.expectedRecoveryAt) : null,
          errorSignature: a.errorSignature ?? null,
          code: a.code ?? null,
        };
        const entry = await this.apply(verdict);
        const refused = refusalOf(verdict, entry);
        return { tool, summary: `${key.toolName} is now ${entry?.status} at ${key.scope}.${refused ? ` ${refused}.` : ''}`, entry };
      }
      case AgrajagToolName.SET_AVAILABLE: {
        const entry = await this.apply({ key, by, note, classification: ToolHealthClassification.WORKING });
        return { tool, summary: `${key.toolName} is OK at ${key.scope}.`, entry };
      }
      case AgrajagToolName.SET_COOLDOWN: {
        const a = args as SetCooldownArguments;
        const classification = assertFailureClassification('arguments.classification', a.classification);
        const durationMs = a.durationSeconds === undefined ? undefined : a.durationSeconds * 1000;
        const userId = cooldownOwner(key, classification, a.userId); // D18
        const signature = a.errorSignature;
        const result = await this.store.write(
          key,
          tenantOf(key, null),
          (env) => (current) =>
            applyCooldown(current ?? newDocument(key, env.now, tenantOf(key, null)), {
              errorSignature: signature,
              userId,
              classification,
              durationMs,
              now: env.now,
              graceMs: env.graceMs,
            }),
        );
        const until = result.after?.cooldowns.find((c) => c.errorSignature === signature && c.userId === userId)?.nextSpawnAllowedAt;
        return { tool, summary: `No diagnosis of ${signature} on ${key.toolName} until ${until?.toISOString()}.`, entry: result.after };
      }
      case AgrajagToolName.CLEAR: {
        const result = await this.store.write(key, tenantOf(key, null), (env) =>
          clearEntry({ key, by, note: note ?? undefined, now: env.now, historyLimit: env.historyLimit }),
        );
        return {
          tool,
          summary: result.after
            ? `${key.toolName} at ${key.scope} was reset to OK.`
            : `Nothing was stored for ${key.toolName} at ${key.scope}.`,
          entry: result.after,
        };
      }
    }
  }

  /** The tool_health_clear effect for an admin (GraphQL): back to OK, every active cooldown ended. NOT_FOUND when nothing is stored. */
  async clearToolHealth(
    input: { scope: unknown; scopeId?: unknown; toolName: unknown; note?: string | null },
    by: string,
  ): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const result = await this.store.write(key, tenantOf(key, null), (env) =>
      clearEntry({ key, by, note: input.note ?? null, now: env.now, historyLimit: env.historyLimit }),
    );
    if (!result.after) throw DomainError.notFound(`no health entry for ${describeKey(key)}`);
    return result.after;
  }

  private async apply(v: Verdict): Promise<ToolHealthDocument | null> {
    const tenantId = tenantOf(v.key, v.tenantId);
    const result = await this.store.write(v.key, tenantId, (env) =>
      applyDiagnosis({ ...v, tenantId, now: env.now, historyLimit: env.historyLimit, graceMs: env.graceMs }),
    );
    return result.after;
  }
}

/** The sentence that says a verdict's cooldown was refused (its status recorded); null when it was set (D20). */
function refusalOf(v: Verdict, entry: ToolHealthDocument | null): string | null {
  if (!cooldownRefused(v, entry)) return null;
  return `No cooldown for ${v.errorSignature}: the entry holds ${MAX_COOLDOWN_ENTRIES} active cooldowns (the status was recorded)`;
}
