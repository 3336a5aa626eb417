import { Injectable } from '@nestjs/common';
import { ToolHealthClassification } from '../domain/classification';
import { applyCooldown, assertFailureClassification } from '../domain/cooldown-policy';
import { DiagnosisVerdict, applyDiagnosis, clearEntry } from '../domain/diagnosis-effects';
import { newDocument } from '../domain/health-entry';
import { validateKey, tenantOf } from '../domain/health-key';
import { cooldownOwner } from '../domain/scope-of-evidence';
import { ToolHealthDocument } from '../domain/tool-health-document';
import { ToolErrorCode } from '../domain/tool-error-code';
import { HealthStore } from '../store/health-store.service';
import { AgrajagToolName } from './agrajag-tools';
import { validateAgrajagArguments } from './agrajag-arguments';
import { AgrajagToolResultView, RecordDiagnosisDto } from './dto/diagnosis.dto';

/** A verdict as the API receives it; the store supplies the moment and the tenant's limits. */
export type Verdict = Omit<DiagnosisVerdict, 'now' | 'historyLimit' | 'graceMs'>;

/** §7 third row: the diagnosis engine's verdicts, applied per D11. */
@Injectable()
export class DiagnosisService {
  constructor(private readonly store: HealthStore) {}

  async recordDiagnosis(dto: RecordDiagnosisDto): Promise<ToolHealthDocument | null> {
    const key = validateKey(dto);
    return this.apply({ ...dto, key, note: dto.note ?? null, durationMs: dto.durationMs ?? undefined });
  }

  /** The four Agrajag tools, their arguments validated against the schema they publish. */
  async invokeTool(name: string, args: Record<string, unknown>, by: string): Promise<AgrajagToolResultView> {
    validateAgrajagArguments(name, args);
    const a = args as Record<string, string | number | undefined>;
    const key = validateKey({ scope: a.scope, scopeId: a.scopeId, toolName: a.toolName });
    const note = (a.note as string | undefined) ?? null;
    const tool = name as AgrajagToolName;
    switch (tool) {
      case AgrajagToolName.SET_UNAVAILABLE: {
        const entry = await this.apply({
          key,
          by,
          note,
          classification: a.classification as ToolHealthClassification,
          expectedRecoveryAt: a.expectedRecoveryAt ? new Date(a.expectedRecoveryAt as string) : null,
          errorSignature: (a.errorSignature as string | undefined) ?? null,
          code: (a.code as ToolErrorCode | undefined) ?? null,
        });
        return { tool, summary: `${key.toolName} is now ${entry?.status} at ${key.scope}.`, entry };
      }
      case AgrajagToolName.SET_AVAILABLE: {
        const entry = await this.apply({ key, by, note, classification: ToolHealthClassification.WORKING });
        return { tool, summary: `${key.toolName} is OK at ${key.scope}.`, entry };
      }
      case AgrajagToolName.SET_COOLDOWN: {
        const classification = assertFailureClassification('arguments.classification', a.classification as ToolHealthClassification);
        const durationMs = a.durationSeconds === undefined ? undefined : Number(a.durationSeconds) * 1000;
        const userId = cooldownOwner(key, classification, a.userId as string | undefined); // D18
        const signature = a.errorSignature as string;
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

  private async apply(v: Verdict): Promise<ToolHealthDocument | null> {
    const tenantId = tenantOf(v.key, v.tenantId);
    const result = await this.store.write(v.key, tenantId, (env) =>
      applyDiagnosis({ ...v, tenantId, now: env.now, historyLimit: env.historyLimit, graceMs: env.graceMs }),
    );
    return result.after;
  }
}
