import { Injectable } from '@nestjs/common';
import { FailureCheckArgs } from './failure-check.args';
import { FailureCheckView, toFailureCheckView } from './failure-check.view';
import { Clock } from '../../runtime/clock';
import { applySuccess } from '../../domain/auto-clear';
import { evaluateCall } from '../../domain/call-evaluation';
import { applyCooldown, findCooldown, hasRoomForCooldown } from '../../domain/cooldown-policy';
import { FailureReason, checkFailure, spawnBlockedUntil } from '../../domain/failure-check';
import { newDocument } from '../../domain/health-entry';
import { CascadeKeyIds, cascadeKeyIds, decodeKey, encodeKey, validateContext, validateId } from '../../domain/health-key';
import { isToolFault } from '../../domain/tool-error-code';
import { CallContext, ToolHealthDocument } from '../../domain/tool-health-document';
import { MaintenanceService } from '../maintenance/maintenance.service';
import { MetricsService } from '../../metrics/metrics.service';
import { WiderEvidenceService } from '../wider-evidence/wider-evidence.service';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { MAX_COOLDOWN_ENTRIES } from '../../domain/cooldown-policy';
import { HealthStore } from '../../write-path/health-store.service';
import { BookkeepingBuffer } from './bookkeeping-buffer.service';
import { BatchReads } from './batch-reads';
import { OutcomeStatsRecorder } from '../tool-stats/outcome-stats-recorder.service';
import { ToolSignalsService } from '../tool-stats/tool-signals.service';
import { toSignalsView } from '../tool-stats/tool-stats.view';
import { signalText } from '../../domain/tool-signals';
import { ChangedEntryView, FailureOutcomeView, FailureReportDto, SuccessOutcomeView, SuccessReportDto } from './outcome.dto';

/** A report's tool and context, checked, with its cascade's keys and ids. */
export interface PreparedCall {
  toolName: string;
  context: CallContext;
  cascade: CascadeKeyIds;
}

/** The dispatcher's hot path: every call outcome (§6 auto-clear, D8 failure check, D10). */
@Injectable()
export class DispatchOutcomeService {
  constructor(
    private readonly repository: ToolHealthRepository,
    private readonly store: HealthStore,
    private readonly bookkeeping: BookkeepingBuffer,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    // Issue 16: maintenance windows and wider evidence (src/features/maintenance, src/features/wider-evidence).
    private readonly maintenance: MaintenanceService,
    private readonly widerEvidence: WiderEvidenceService,
    // Issue 39: every outcome is counted (in memory), and the failure answer shows the signals.
    private readonly stats: OutcomeStatsRecorder,
    private readonly signals: ToolSignalsService,
  ) {}

  /**
   * One read of the caller's cascade; a write only for an entry the success disproves (D10).
   * The reducer runs again inside the write on the fresh document, so a concurrent change is
   * never overwritten with stale data.
   */
  async reportSuccess(dto: SuccessReportDto, batch?: BatchReads, call = this.prepare(dto)): Promise<SuccessOutcomeView> {
    const { toolName, context, cascade } = call;
    const now = this.clock.now();
    // A batch item finds its cascade in the batch's one read; a single report reads it beside the windows.
    const [entries, maintenance] = batch
      ? [
          batch.cascade(cascade.ids),
          this.maintenance.viewIfFresh(toolName, context, now) ?? (await this.maintenance.viewFor(toolName, context, now)),
        ]
      : await Promise.all([this.repository.findManyByIds(cascade.ids), this.maintenance.viewFor(toolName, context, now)]);
    const userId = context.userId ?? null;
    const errorSignatures = dto.errorSignatures;
    // Only the documents in the call's reach (up to a pin that shadows the rest) (D18/D20).
    const evaluation = evaluateCall({ toolName, context, entries, now, maintenance, cascade });
    // Which documents the success changes; the history limit does not decide that.
    const probe = { userId, errorSignatures, now, historyLimit: Number.MAX_SAFE_INTEGER };
    const stale = evaluation.reachEntries.filter((doc) => applySuccess(doc, probe) !== doc);

    const changed: ChangedEntryView[] = [];
    for (const doc of stale) {
      const result = await this.store.write(
        doc,
        doc.tenantId,
        (env) => (current) =>
          current ? applySuccess(current, { userId, errorSignatures, now: env.now, historyLimit: env.historyLimit }) : current,
        { stored: doc },
      );
      if (result.written && result.after) {
        entries.set(result.after.id, result.after);
        batch?.wrote(result.after);
        changed.push({ scope: result.after.scope, scopeId: result.after.scopeId, status: result.after.status });
      }
    }
    this.stats.record(toolName, context.tenantId, true, undefined, dto.durationMs, now.getTime());
    // A success does not end a maintenance window (issue 16): it still reads DOWN until `until`.
    return {
      status: changed.length === 0 ? evaluation.status : evaluateCall({ toolName, context, entries, now, maintenance, cascade }).status,
      changed,
    };
  }

  /**
   * The decision reportFailure would take now, from the same reads, with none of its
   * effects (no hit, no mark, no cooldown, no wider evidence, no metric): for the console (P176).
   */
  async checkFailureOnly(args: FailureCheckArgs): Promise<FailureCheckView> {
    const { toolName, context } = this.validate({ toolName: args.toolName, context: args.context ?? undefined });
    const now = this.clock.now();
    const fault = isToolFault(args.code);
    const cascade = cascadeKeyIds(toolName, context);
    const [entries, maintenance] = fault
      ? await Promise.all([this.readCascade(cascade), this.maintenance.viewFor(toolName, context, now)])
      : [new Map<string, ToolHealthDocument>(), null];
    const decision = checkFailure({
      toolName,
      context,
      code: args.code,
      errorSignature: validateId('errorSignature', args.errorSignature),
      classification: args.classification ?? null,
      entries,
      now,
      maintenance,
      cascade,
    });
    return toFailureCheckView(decision, this.signals.signalsFor(toolName));
  }

  async reportFailure(dto: FailureReportDto, batch?: BatchReads, call = this.prepare(dto)): Promise<FailureOutcomeView> {
    const { toolName, context, cascade } = call;
    const now = this.clock.now();
    // Not a tool fault: nothing to read, nothing to touch (§3.1).
    const entries = isToolFault(dto.code) ? await this.readCascade(cascade, batch) : new Map<string, ToolHealthDocument>();
    const maintenance = isToolFault(dto.code) ? await this.maintenance.viewFor(toolName, context, now) : null;
    const report = {
      toolName,
      context,
      code: dto.code,
      errorSignature: dto.errorSignature,
      classification: dto.classification,
      entries,
      now,
      maintenance,
      cascade,
    };
    const decision = checkFailure(report);
    const why = [...decision.why];
    const wider = this.widerEvidence.report({
      toolName,
      context,
      code: dto.code,
      errorSignature: dto.errorSignature,
      classification: dto.classification,
      decision,
      entries,
      now,
    });

    if (decision.hit) this.bookkeeping.recordHit(decision.hit, now);
    for (const docId of decision.failureMarks) this.bookkeeping.recordFailure(docId, now);
    await this.bookkeeping.settle();
    await this.widerEvidence.settle();

    const hitKey = decision.hit && keyOf(decision.hit.docId);
    let cooldown =
      decision.hit && hitKey
        ? { scope: hitKey.scope, scopeId: hitKey.scopeId, errorSignature: decision.hit.errorSignature, userId: decision.hit.userId }
        : null;
    let retryAt = decision.retryAt;
    const write = decision.cooldownWrite;
    let refused = false;
    if (write) {
      const result = await this.store.write(
        write.key,
        context.tenantId ?? null,
        (env) => (stored) => {
          const current = stored ?? newDocument(write.key, env.now, context.tenantId ?? null);
          // D7 cap: a full document gets no new entry here; the answer stays "do not spawn" (P51) and says so.
          if (!hasRoomForCooldown(current, write.errorSignature, write.userId, env.now)) {
            refused = true;
            return stored;
          }
          return applyCooldown(current, {
            errorSignature: write.errorSignature,
            userId: write.userId,
            classification: write.classification,
            now: env.now,
            graceMs: env.graceMs,
          });
        },
        { stored: entries.get(encodeKey(write.key)) ?? null },
      );
      const entry = result.after && findCooldown(result.after, write.errorSignature, write.userId);
      if (entry && result.after) {
        // The answer agrees with the next check — the new entry and every wider block (P51).
        entries.set(result.after.id, result.after);
        batch?.wrote(result.after);
        // `report.entries` is `entries`, which now holds the new entry.
        retryAt = spawnBlockedUntil(report, context.userId ?? null).at;
        cooldown = { scope: write.key.scope, scopeId: write.key.scopeId, errorSignature: write.errorSignature, userId: write.userId };
      }
    }

    if (refused) why.push(`no cooldown: the ${write!.key.scope} document holds ${MAX_COOLDOWN_ENTRIES} active cooldowns`);

    this.metrics.failureDecision(decision.reason, decision.spawn);
    if (hitKey) this.metrics.cooldownHit(hitKey.scope);
    this.stats.record(toolName, context.tenantId, false, dto.code, dto.durationMs, now.getTime());
    // Issue 39: the signals are evidence for the diagnosis, beside the decision (never part of it).
    const signals = isToolFault(dto.code) ? this.signals.signalsFor(toolName) : null;
    const evidence = signalText(signals);
    if (evidence) why.push(`evidence from recent calls: ${evidence}`);
    return {
      spawn: decision.spawn,
      reason: decision.reason,
      reflectError: decision.reflectError,
      retryAt,
      retryAfterSeconds: retryAt ? Math.max(0, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)) : null,
      coalescingKey: wider?.coalescingKey ?? decision.coalescingKey,
      widerEvidence: wider?.evidence ?? null,
      status: decision.reason === FailureReason.NOT_A_TOOL_FAULT ? null : decision.effective.status,
      cooldown,
      signals: toSignalsView(signals),
      why,
    };
  }

  /**
   * A report's call checked, with the ids its cascade is read by and evaluated with, encoded once
   * (P346). A batch prepares every item before its one read and hands each report its own, so
   * an item's ids are built and hashed once, not once for the read and again for the report (P347).
   */
  prepare(dto: { toolName: string; context?: CallContext }): PreparedCall {
    const { toolName, context } = this.validate(dto);
    return { toolName, context, cascade: cascadeKeyIds(toolName, context) };
  }

  /** The cascade ids a prepared report reads (none for a failure that is not the tool's fault), for a batch's one read. */
  idsToRead(call: PreparedCall, failureCode?: FailureReportDto['code']): readonly string[] {
    return failureCode !== undefined && !isToolFault(failureCode) ? [] : call.cascade.ids;
  }

  private validate(dto: { toolName: string; context?: CallContext }): { toolName: string; context: CallContext } {
    return { toolName: validateId('toolName', dto.toolName), context: validateContext(dto.context ?? {}) };
  }

  private async readCascade({ ids }: CascadeKeyIds, batch?: BatchReads): Promise<Map<string, ToolHealthDocument>> {
    return batch ? batch.cascade(ids) : this.repository.findManyByIds(ids);
  }
}

function keyOf(docId: string): { scope: ToolHealthDocument['scope']; scopeId: string | null } {
  const key = decodeKey(docId);
  return { scope: key.scope, scopeId: key.scopeId };
}
