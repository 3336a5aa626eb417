import { Injectable, Logger } from '@nestjs/common';
import { Principal } from '../../auth/principal';
import { Clock } from '../../runtime/clock';
import { DomainError } from '../../domain/domain-error';
import { describeKey, encodeKey, tenantOf, validateKey } from '../../domain/health-key';
import { pinEntry, unpinEntry, validatePin } from '../../domain/pin';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { ToolHealthAdminRepository } from '../../persistence/tool-health/tool-health-admin.repository';
import { adminActor } from '../../shapes/admin-actor';
import { HealthKeyInput } from '../../shapes/health-key.input';
import { HealthStore } from '../../write-path/health-store.service';
import { PinToolHealthInput, PurgeToolHealthInput } from './admin.input';
import { PurgeResultModel } from './purge.model';

/**
 * An admin's repairs of the health entries (D4b pins, D14 deletes): pins through the single write
 * path (HealthStore), deletes through it or the admin repository. Each is logged with who and what (D14).
 */
@Injectable()
export class ToolHealthRepairsService {
  private readonly audit = new Logger('AdminAudit');

  constructor(
    private readonly store: HealthStore,
    private readonly admin: ToolHealthAdminRepository,
    private readonly clock: Clock,
  ) {}

  async pin(input: PinToolHealthInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const request = { status: input.status, until: input.until, reason: input.reason, by: adminActor(by) };
    validatePin({ ...request, now: this.clock.now() }); // before any read
    // The hint for a document this pin creates; a stored one keeps its own tenant, and its limit (P368).
    const tenantId = tenantOf(key, input.tenantId);
    const result = await this.store.write(key, tenantId, (env) =>
      pinEntry({ ...request, key, now: env.now, historyLimit: env.historyLimit, tenantId }),
    );
    const doc = result.after!;
    this.audit.log(`admin ${by.name} pinned ${doc.id} ${input.status} until ${input.until.toISOString()}: ${doc.pin?.reason}`);
    return doc;
  }

  async unpin(input: HealthKeyInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const result = await this.store.write(key, tenantOf(key, null), (env) =>
      unpinEntry({ by: adminActor(by), now: env.now, historyLimit: env.historyLimit }),
    );
    if (!result.before) throw DomainError.notFound(`no health entry for ${describeKey(key)}`);
    if (!result.written) throw DomainError.notFound(`no pin on ${describeKey(key)}`);
    this.audit.log(`admin ${by.name} unpinned ${result.after!.id}`);
    return result.after!;
  }

  /** Hard delete of one key, by an admin, logged (D14). NOT_FOUND when there is no such document. */
  async delete(input: HealthKeyInput, by: Principal): Promise<ToolHealthDocument> {
    const key = validateKey(input);
    const id = encodeKey(key);
    const deleted = await this.store.delete(key, adminActor(by));
    if (!deleted) throw DomainError.notFound(`no health entry for ${describeKey(key)}`);
    this.audit.log(`admin ${by.name} deleted ${id}`);
    return deleted;
  }

  /** Bulk hard delete by scope and age, one capped batch per call, logged (D14). */
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
}
