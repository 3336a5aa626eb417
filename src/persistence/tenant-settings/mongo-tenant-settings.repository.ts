import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { TenantSettings, TenantSettingsRepository } from './tenant-settings.repository';
import { TenantSettingsRecord } from './tenant-settings.schema';

function toDomain(record: TenantSettingsRecord): TenantSettings {
  return { tenantId: record._id, historyLimit: record.historyLimit ?? null, updatedAt: record.updatedAt, updatedBy: record.updatedBy };
}

@Injectable()
export class MongoTenantSettingsRepository extends TenantSettingsRepository {
  constructor(@InjectModel(TenantSettingsRecord.name) private readonly model: Model<TenantSettingsRecord>) {
    super();
  }

  async find(tenantId: string): Promise<TenantSettings | null> {
    const record = await this.model.findById(tenantId).lean<TenantSettingsRecord>().exec();
    return record ? toDomain(record) : null;
  }

  /** A whole-document replace by `_id`: one statement, atomic on every server we support. */
  async setHistoryLimit(tenantId: string, historyLimit: number | null, by: string, now: Date): Promise<TenantSettings> {
    const record: TenantSettingsRecord = { _id: tenantId, historyLimit, updatedAt: now, updatedBy: by };
    await this.model.collection.replaceOne({ _id: tenantId } as never, record as never, { upsert: true });
    return toDomain(record);
  }
}
