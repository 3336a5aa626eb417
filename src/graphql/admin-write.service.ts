import { Injectable, Logger } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { Clock } from '../runtime/clock';
import { CooldownService } from '../features/cooldowns/cooldown.service';
import { DiagnosisService } from '../features/diagnoses/diagnosis.service';
import { clearEntry } from '../domain/diagnosis-effects';
import { DomainError } from '../domain/domain-error';
import { encodeKey, tenantOf, validateKey } from '../domain/health-key';
import { pinEntry, unpinEntry, validatePin } from '../domain/pin';
import { HealthKey, ToolHealthDocument } from '../domain/tool-health-document';
import { SystemWritesService } from '../features/system-writes/system-writes.service';
import { ToolHealthAdminRepository } from '../persistence/tool-health/tool-health-admin.repository';
import { ToolHealthRepository } from '../persistence/tool-health/tool-health.repository';
import { HealthStore } from '../write-path/health-store.service';
import { TenantSettingsService } from '../features/tenants/tenant-settings.service';
import { adminActor, nullsAbsent } from '../shapes/admin-actor';
import { PinToolHealthInput, PurgeToolHealthInput, SetTenantHistoryLimitInput } from '../features/tool-health/admin.input';
import { SetCooldownInput, ClearCooldownInput, ChangeCooldownWindowInput } from '../features/cooldowns/cooldown.input';
import { ClearToolHealthInput, RecordDiagnosisInput } from '../features/diagnoses/diagnosis.input';
import { HealthKeyInput } from '../shapes/health-key.input';
import { MarkAvailableInput, MarkIntermittentInput, MarkUnavailableInput } from '../features/system-writes/system-write.input';
import { PurgeResultModel } from '../features/tool-health/purge.model';
import { SweepResultView } from '../features/cooldowns/cooldown.dto';
import { TenantSettingsModel } from '../features/tenants/tenant-settings.model';

/**
 * Every write path of the service, for an admin: the REST API's services where they exist, and
 * the admin-only acts (clear, pin, unpin, hard delete, purge) through the single write path
 * (HealthStore) or, for deletes, the admin repository. Overrides and deletes are logged with
 * who and what (D14).
 */
@Injectable()
export class AdminWriteService {
  private readonly audit = new Logger('AdminAudit');

  constructor(
    private readonly system: SystemWritesService,
    private readonly cooldowns: CooldownService,
    private readonly diagnoses: DiagnosisService,
    private readonly tenantSettings: TenantSettingsService,
    private readonly store: HealthStore,
    private readonly repository: ToolHealthRepository,
    private readonly admin: ToolHealthAdminRepository,
    private readonly clock: Clock,
  ) {}

  markUnavailable(input: MarkUnavailableInput, by: Principal): Promise<ToolHealthDocument> {
    return this.system.markUnavailable({ ...nullsAbsent(input), source: input.source ?? adminActor(by) });
  }

  markIntermittent(input: MarkIntermittentInput, by: Principal): Promise<ToolHealthDocument> {
    return this.system.markIntermittent({ ...nullsAbsent(input), source: input.source ?? adminActor(by) });
  }

  markAvailable(input: MarkAvailableInput, by: Principal): Promise<ToolHealthDocument> {
    return this.system.markAvailable({ ...nullsAbsent(input), source: input.source ?? adminActor(by) });
  }

  setCooldown(input: SetCooldownInput): Promise<ToolHealthDocument> {
    return this.cooldowns.setCooldown(nullsAbsent(input));
  }

  clearCooldown(input: ClearCooldownInput): Promise<ToolHealthDocument> {
    return this.cooldowns.clearCooldown(nullsAbsent(input));
  }

  changeCooldownWindow(input: ChangeCooldownWindowInput): Promise<ToolHealthDocument> {
    return this.cooldowns.changeCooldownWindow(nullsAbsent(input));
  }

  /** The entry as stored, and (D20) the sentence saying its cooldown was refused by a full entry, else null. */
  async recordDiagnosis(
    input: RecordDiagnosisInput,
    by: Principal,
  ): Promise<{ entry: ToolHealthDocument; cooldownRefused: string | null }> {
    const { entry, cooldownRefused } = await this.diagnoses.recordDiagnosis({ ...nullsAbsent(input), by: input.by ?? adminActor(by) });
    if (!entry) throw DomainError.notFound(`no health entry for ${describe(validateKey(input))}`);
    return { entry, cooldownRefused };
  }

  /** The tool_health_clear effect: back to OK, every active cooldown ended. NOT_FOUND when nothing is stored. */
  async clearToolHealth(input: ClearToolHealthInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const result = await this.store.write(key, await this.tenantFor(key), (env) =>
      clearEntry({ key, by: adminActor(by), note: input.note ?? null, now: env.now, historyLimit: env.historyLimit }),
    );
    if (!result.after) throw DomainError.notFound(`no health entry for ${describe(key)}`);
    return result.after;
  }

  runSweep(): Promise<SweepResultView> {
    return this.cooldowns.sweep();
  }

  setTenantHistoryLimit(input: SetTenantHistoryLimitInput, by: Principal): Promise<TenantSettingsModel> {
    return this.tenantSettings.setHistoryLimit(input.tenantId, input.historyLimit ?? null, by);
  }

  async pin(input: PinToolHealthInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const request = { status: input.status, until: input.until, reason: input.reason, by: adminActor(by) };
    validatePin({ ...request, now: this.clock.now() }); // before any read
    const tenantId = await this.tenantFor(key, input.tenantId);
    const result = await this.store.write(key, tenantId, (env) =>
      pinEntry({ ...request, key, now: env.now, historyLimit: env.historyLimit, tenantId }),
    );
    const doc = result.after!;
    this.audit.log(`admin ${by.name} pinned ${doc.id} ${input.status} until ${input.until.toISOString()}: ${doc.pin?.reason}`);
    return doc;
  }

  async unpin(input: HealthKeyInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const result = await this.store.write(key, await this.tenantFor(key), (env) =>
      unpinEntry({ by: adminActor(by), now: env.now, historyLimit: env.historyLimit }),
    );
    if (!result.before) throw DomainError.notFound(`no health entry for ${describe(key)}`);
    if (!result.written) throw DomainError.notFound(`no pin on ${describe(key)}`);
    this.audit.log(`admin ${by.name} unpinned ${result.after!.id}`);
    return result.after!;
  }

  /** D14: hard delete of one key, by an admin, logged. NOT_FOUND when there is no such document. */
  async delete(input: HealthKeyInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const id = encodeKey(key);
    const deleted = await this.store.delete(key, adminActor(by));
    if (!deleted) throw DomainError.notFound(`no health entry for ${describe(key)}`);
    this.audit.log(`admin ${by.name} deleted ${id}`);
    return deleted;
  }

  /** D14: bulk hard delete by scope and age, one capped batch per call, logged. */
  async purge(input: PurgeToolHealthInput, by: Principal): Promise<PurgeResultModel> {
    const now = this.clock.now();
    if (input.olderThan.getTime() > now.getTime()) {
      throw DomainError.invalid('olderThan', `must not be after now (${now.toISOString()})`);
    }
    const outcome = await this.admin.purge(input.scope, input.olderThan, now, input.limit);
    this.audit.log(
      `admin ${by.name} purged ${outcome.deleted} ${input.scope} documents updated before ${input.olderThan.toISOString()}${outcome.hasMore ? ' (more remain)' : ''}`,
    );
    return { scope: input.scope, olderThan: input.olderThan, ...outcome };
  }

  /**
   * The tenant whose history limit governs an admin write: the key's own for TENANT, else the
   * one given, else the one the document already records (so an admin act does not cut a
   * tenant's longer history down to the default).
   */
  private async tenantFor(key: HealthKey, given?: string | null): Promise<string | null> {
    const own = tenantOf(key, given);
    if (own) return own;
    return (await this.repository.findById(encodeKey(key)))?.tenantId ?? null;
  }
}

function describe(key: HealthKey): string {
  return `${key.scope}${key.scopeId ? ` ${key.scopeId}` : ''} / ${key.toolName}`;
}
