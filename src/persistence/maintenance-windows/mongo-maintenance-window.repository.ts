import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, Filter } from 'mongodb';
import { Model } from 'mongoose';
import { MaintenanceWindow } from '../../domain/maintenance-window';
import { MaintenanceListFilter, MaintenanceWindowRepository } from './maintenance-window.repository';
import { MaintenanceWindowRecord } from './maintenance-window.schema';

function toDomain(record: MaintenanceWindowRecord): MaintenanceWindow {
  const { _id, eventsDone: _done, ...rest } = record;
  return { ...rest, id: _id, scopeId: rest.scopeId ?? null };
}

function toRecord(window: MaintenanceWindow): MaintenanceWindowRecord {
  const { id, ...rest } = window;
  const done =
    window.endedEventAt !== null ||
    (window.cancelledAt !== null && window.startedEventAt === null && window.cancelledAt.getTime() <= window.from.getTime());
  return { ...rest, _id: id, eventsDone: done };
}

/**
 * The driver collection, not the Model: every filter is built here from validated values (ids
 * are UUIDs or D3a ids, instants are Dates), and the operators are ours (sanitizeFilter would
 * neutralise them on the Model).
 */
@Injectable()
export class MongoMaintenanceWindowRepository extends MaintenanceWindowRepository {
  private readonly records: Collection<MaintenanceWindowRecord>;

  constructor(@InjectModel(MaintenanceWindowRecord.name) model: Model<MaintenanceWindowRecord>) {
    super();
    this.records = model.collection as unknown as Collection<MaintenanceWindowRecord>;
  }

  async insert(window: MaintenanceWindow): Promise<void> {
    await this.records.insertOne(toRecord(window));
  }

  async findById(id: string): Promise<MaintenanceWindow | null> {
    const record = await this.records.findOne({ _id: id });
    return record ? toDomain(record) : null;
  }

  async replace(window: MaintenanceWindow, expectedVersion: number): Promise<boolean> {
    const result = await this.records.replaceOne({ _id: window.id, version: expectedVersion }, toRecord(window));
    return result.matchedCount === 1;
  }

  // Served by { cancelledAt: 1, until: 1 }.
  async findCurrent(now: Date, horizon: Date): Promise<MaintenanceWindow[]> {
    const records = await this.records.find({ cancelledAt: null, until: { $gt: now }, from: { $lte: horizon } }).toArray();
    return records.map(toDomain);
  }

  // Served by { toolName: 1, scope: 1, scopeId: 1, from: -1 } when a tool is named.
  async list(filter: MaintenanceListFilter): Promise<MaintenanceWindow[]> {
    const query: Filter<MaintenanceWindowRecord> = {};
    if (filter.toolName) query.toolName = filter.toolName;
    if (filter.scope) query.scope = filter.scope;
    if (filter.scopeId !== undefined) query.scopeId = filter.scopeId;
    if (!filter.includeEnded) {
      query.cancelledAt = null;
      query.until = { $gt: filter.now };
    }
    const records = await this.records.find(query).sort({ from: -1, _id: 1 }).limit(filter.limit).toArray();
    return records.map(toDomain);
  }

  // Served by { eventsDone: 1, from: 1 }.
  async findOwingEvents(now: Date, limit: number): Promise<MaintenanceWindow[]> {
    const records = await this.records
      .find({ eventsDone: false, from: { $lte: now } })
      .sort({ from: 1 })
      .limit(limit)
      .toArray();
    return records.map(toDomain);
  }

  async markEvents(id: string, marks: { startedEventAt?: Date; endedEventAt?: Date; eventsDone: boolean }): Promise<void> {
    if (marks.startedEventAt)
      await this.records.updateOne({ _id: id, startedEventAt: null }, { $set: { startedEventAt: marks.startedEventAt } });
    if (marks.endedEventAt) await this.records.updateOne({ _id: id, endedEventAt: null }, { $set: { endedEventAt: marks.endedEventAt } });
    if (marks.eventsDone) await this.records.updateOne({ _id: id }, { $set: { eventsDone: true } });
  }
}
