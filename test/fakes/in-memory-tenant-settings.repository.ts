import { TenantSettings, TenantSettingsRepository } from '../../src/persistence/tenant-settings/tenant-settings.repository';
import { copy } from './in-memory-database';

/** TenantSettingsRepository in memory: a whole-record replace by tenant id, as the Mongo adapter's upsert. */
export class InMemoryTenantSettingsRepository extends TenantSettingsRepository {
  readonly settings = new Map<string, TenantSettings>();
  /** How many times `find` was called (the write path caches a tenant's limit, P-D12). */
  finds = 0;

  async find(tenantId: string): Promise<TenantSettings | null> {
    this.finds++;
    const found = this.settings.get(tenantId);
    return found ? copy(found) : null;
  }

  async setHistoryLimit(tenantId: string, historyLimit: number | null, by: string, now: Date): Promise<TenantSettings> {
    const record: TenantSettings = { tenantId, historyLimit, updatedAt: new Date(now), updatedBy: by };
    this.settings.set(tenantId, record);
    return copy(record);
  }
}
