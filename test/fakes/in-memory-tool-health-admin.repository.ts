import { Scope } from '../../src/domain/scope';
import { ToolHealthDocument } from '../../src/domain/tool-health-document';
import { ToolStatus } from '../../src/domain/tool-status';
import { toDomain } from '../../src/persistence/tool-health/tool-health.mapper';
import {
  AdminListFilter,
  PurgeOutcome,
  ScopeStatusCount,
  ToolHealthAdminRepository,
} from '../../src/persistence/tool-health/tool-health-admin.repository';
import { InMemoryDatabase, StoredToolHealthRecord, before, byId, copy } from './in-memory-database';

/** ToolHealthAdminRepository in memory, over the same records as InMemoryToolHealthRepository (pass it the same database). */
export class InMemoryToolHealthAdminRepository extends ToolHealthAdminRepository {
  constructor(readonly db: InMemoryDatabase = new InMemoryDatabase()) {
    super();
  }

  async page(
    filter: AdminListFilter,
    now: Date,
    range: { afterId: string | null; beforeId: string | null },
    limit: number,
    backward = false,
  ): Promise<ToolHealthDocument[]> {
    const active = (r: StoredToolHealthRecord) => (r.cooldowns ?? []).some((c) => c.nextSpawnAllowedAt.getTime() > now.getTime());
    const records = [...this.db.toolHealth.values()].filter(
      (r) =>
        (filter.scope === undefined || r.scope === filter.scope) &&
        (filter.scopeId === undefined || r.scopeId === filter.scopeId) &&
        (filter.toolName === undefined || r.toolName === filter.toolName) &&
        (filter.status === undefined || r.status === filter.status) &&
        (filter.hasActiveCooldown === undefined || active(r) === filter.hasActiveCooldown) &&
        (range.afterId === null || r._id > range.afterId) &&
        (range.beforeId === null || r._id < range.beforeId),
    );
    records.sort(byId);
    if (backward) records.reverse();
    return records.slice(0, limit).map((r) => toDomain(copy(r)));
  }

  async countByScopeAndStatus(toolName: string): Promise<ScopeStatusCount[]> {
    return this.count([...this.db.toolHealth.values()].filter((r) => r.toolName === toolName));
  }

  async countAllByScopeAndStatus(_maxTimeMs: number): Promise<ScopeStatusCount[]> {
    return this.count([...this.db.toolHealth.values()]);
  }

  async deleteById(id: string): Promise<ToolHealthDocument | null> {
    const record = this.db.toolHealth.get(id);
    if (!record) return null;
    this.db.toolHealth.delete(id); // the presence list keeps the name, as in Mongo (P81: lists only grow)
    return toDomain(copy(record));
  }

  async purge(scope: Scope, olderThan: Date, now: Date, limit: number): Promise<PurgeOutcome> {
    const matching = [...this.db.toolHealth.values()]
      .filter(
        (r) =>
          r.scope === scope &&
          before(r.updatedAt, olderThan) &&
          // A pin still in force is kept; so is a document with events not yet relayed (P53).
          (r.pin == null || r.pin.until.getTime() <= now.getTime()) &&
          (r.pendingEvents ?? []).length === 0,
      )
      .sort(byId);
    const batch = matching.slice(0, limit);
    for (const r of batch) this.db.toolHealth.delete(r._id);
    return { deleted: batch.length, hasMore: matching.length > limit };
  }

  private count(records: StoredToolHealthRecord[]): ScopeStatusCount[] {
    const counts = new Map<string, ScopeStatusCount>();
    for (const r of records) {
      const key = `${r.scope}|${r.status}`;
      const current = counts.get(key) ?? { scope: r.scope as Scope, status: r.status as ToolStatus, count: 0 };
      current.count += 1;
      counts.set(key, current);
    }
    return [...counts.values()];
  }
}
