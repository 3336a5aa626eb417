import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, Filter } from 'mongodb';
import { Model } from 'mongoose';
import { Scope } from '../../domain/scope';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { ToolStatus } from '../../domain/tool-status';
import { toDomain } from './tool-health.mapper';
import { AdminListFilter, PurgeOutcome, ScopeStatusCount, ToolHealthAdminRepository } from './tool-health-admin.repository';
import { ToolHealthRecord } from './tool-health.schema';

// Every query here goes to the driver collection: the operators ($gt, $not, $or, $in) are ours
// and mongoose's sanitizeFilter would neutralise them. Only validated strings, enums, booleans
// and Dates reach these filters — never a client object.
@Injectable()
export class MongoToolHealthAdminRepository extends ToolHealthAdminRepository {
  private readonly records: Collection<ToolHealthRecord>;

  constructor(@InjectModel(ToolHealthRecord.name) model: Model<ToolHealthRecord>) {
    super();
    this.records = model.collection as unknown as Collection<ToolHealthRecord>;
  }

  async page(
    filter: AdminListFilter,
    now: Date,
    range: { afterId: string | null; beforeId: string | null },
    limit: number,
    backward = false,
  ): Promise<ToolHealthDocument[]> {
    const query: Filter<ToolHealthRecord> = {};
    // Equality on scope/scopeId/status and toolName/status: the §5 indexes serve these prefixes.
    if (filter.scope !== undefined) query.scope = filter.scope;
    if (filter.scopeId !== undefined) query.scopeId = filter.scopeId;
    if (filter.toolName !== undefined) query.toolName = filter.toolName;
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.hasActiveCooldown === true) query['cooldowns.nextSpawnAllowedAt'] = { $gt: now };
    // "No element after now, or no cooldowns at all". `$nor` rather than `$not` on the array path:
    // mongo-java-server does not match an empty array with the latter.
    if (filter.hasActiveCooldown === false) query.$nor = [{ 'cooldowns.nextSpawnAllowedAt': { $gt: now } }];
    if (range.afterId !== null || range.beforeId !== null) {
      query._id = {
        ...(range.afterId !== null ? { $gt: range.afterId } : {}),
        ...(range.beforeId !== null ? { $lt: range.beforeId } : {}),
      };
    }
    const records = await this.records
      .find(query)
      .sort({ _id: backward ? -1 : 1 })
      .limit(limit)
      .toArray();
    return records.map(toDomain);
  }

  async countByScopeAndStatus(toolName: string): Promise<ScopeStatusCount[]> {
    // {toolName} equality: a prefix of the { toolName: 1, status: 1 } index of §5.
    const groups = await this.records
      .aggregate<{ _id: { scope: Scope; status: ToolStatus }; count: number }>([
        { $match: { toolName } },
        { $group: { _id: { scope: '$scope', status: '$status' }, count: { $sum: 1 } } },
      ])
      .toArray();
    return groups.map((g) => ({ scope: g._id.scope, status: g._id.status, count: g.count }));
  }

  async countAllByScopeAndStatus(maxTimeMs: number): Promise<ScopeStatusCount[]> {
    // A scan by nature (no filter): called at most once per TTL per instance (DocumentCounts).
    const groups = await this.records
      .aggregate<{ _id: { scope: Scope; status: ToolStatus }; count: number }>(
        [{ $group: { _id: { scope: '$scope', status: '$status' }, count: { $sum: 1 } } }],
        {
          maxTimeMS: maxTimeMs,
        },
      )
      .toArray();
    return groups.map((g) => ({ scope: g._id.scope, status: g._id.status, count: g.count }));
  }

  async deleteById(id: string): Promise<ToolHealthDocument | null> {
    const record = await this.records.findOneAndDelete({ _id: id });
    return record ? toDomain(record) : null;
  }

  async purge(scope: Scope, olderThan: Date, now: Date, limit: number): Promise<PurgeOutcome> {
    const filter: Filter<ToolHealthRecord> = {
      scope,
      updatedAt: { $lt: olderThan },
      // A pin still in force is a deliberate override: age alone does not remove it.
      $or: [{ pin: null }, { 'pin.until': { $lte: now } }],
      // Events not yet relayed would be lost with the document (P53): it goes on a later purge.
      'pendingEvents.0': { $exists: false },
    };
    const ids = (
      await this.records
        .find(filter, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .limit(limit + 1)
        .toArray()
    ).map((r) => r._id);
    const batch = ids.slice(0, limit);
    if (batch.length === 0) return { deleted: 0, hasMore: false };
    // The filter again: a document written between the find and the delete is no longer "old".
    const result = await this.records.deleteMany({ ...filter, _id: { $in: batch } });
    return { deleted: result.deletedCount, hasMore: ids.length > limit };
  }
}
