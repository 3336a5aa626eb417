import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Collection, Filter } from 'mongodb';
import { Model } from 'mongoose';
import { MaintenanceWindow, windowBlanks } from '../../domain/maintenance-window';
import { withBlanks } from '../../domain/same-keys';
import { MaintenanceListFilter, MaintenanceWindowRepository } from './maintenance-window.repository';
import { MaintenanceWindowRecord } from './maintenance-window.schema';

function toDomain(record: MaintenanceWindowRecord): MaintenanceWindow {
  const { _id, eventsDone: _done, recurrence, warnedEventAt, eventsThrough, eventMarks, ...rest } = record;
  // A field written before it existed reads as its blank (windowBlanks, the one list).
  const window: MaintenanceWindow = { ...withBlanks({ ...rest, warnedEventAt }, windowBlanks()), id: _id };
  // Only a series carries its recurrence and its event bookkeeping (P190).
  return recurrence ? { ...window, recurrence, eventsThrough: eventsThrough ?? null, eventMarks: eventMarks ?? [] } : window;
}

function toRecord(window: MaintenanceWindow): MaintenanceWindowRecord {
  const { id, seriesId: _series, occurrence: _occurrence, ...rest } = window;
  // A series owes events until its tick says otherwise (P192).
  const done =
    !window.recurrence &&
    (window.endedEventAt !== null ||
      (window.cancelledAt !== null && window.startedEventAt === null && window.cancelledAt.getTime() <= window.from.getTime()));
  return { ...rest, recurrence: window.recurrence ?? null, warnedEventAt: window.warnedEventAt ?? null, _id: id, eventsDone: done };
}

/** The longest window (P75): a series ended longer ago than this has no occurrence left running. */
const MAX_DURATION_MS = 31 * 24 * 3_600_000;

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

  /** The event marks are the tick's (P192): an admin's change never writes them back from its older read. */
  async replace(window: MaintenanceWindow, expectedVersion: number): Promise<boolean> {
    const { _id, warnedEventAt: _w, eventsThrough: _t, eventMarks: _m, ...fields } = toRecord(window);
    const result = await this.records.updateOne({ _id, version: expectedVersion }, { $set: fields });
    return result.matchedCount === 1;
  }

  // Served by { cancelledAt: 1, until: 1 }.
  async findCurrent(now: Date, horizon: Date): Promise<MaintenanceWindow[]> {
    const records = await this.records
      .find({
        cancelledAt: null,
        from: { $lte: horizon },
        $or: [
          { until: { $gt: now } },
          { 'recurrence.rrule': { $type: 'string' }, 'recurrence.endedAt': null },
          { 'recurrence.rrule': { $type: 'string' }, 'recurrence.endedAt': { $gt: new Date(now.getTime() - MAX_DURATION_MS) } },
        ],
      } as Filter<MaintenanceWindowRecord>)
      .toArray();
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
      // A series' own `until` is its first occurrence's; it lists while it may recur (P190).
      (query as Record<string, unknown>).$or = [
        { until: { $gt: filter.now } },
        { 'recurrence.rrule': { $type: 'string' }, 'recurrence.endedAt': null },
        { 'recurrence.rrule': { $type: 'string' }, 'recurrence.endedAt': { $gt: new Date(filter.now.getTime() - MAX_DURATION_MS) } },
      ];
    }
    const records = await this.records.find(query).sort({ from: -1, _id: 1 }).limit(filter.limit).toArray();
    return records.map(toDomain);
  }

  // Served by { eventsDone: 1, from: 1 } and { eventsDone: 1, 'recurrence.overrides.from': 1 }. A
  // series' `from` is its first occurrence as the rule gives it; that occurrence may have been
  // moved earlier alone, and then its warning and start are owed before `from` (P225).
  async findOwingEvents(now: Date, limit: number, leadMs = 0): Promise<MaintenanceWindow[]> {
    const horizon = new Date(now.getTime() + leadMs);
    const records = await this.records
      .find({
        eventsDone: false,
        $or: [{ from: { $lte: horizon } }, { 'recurrence.overrides.from': { $lte: horizon } }],
      } as Filter<MaintenanceWindowRecord>)
      .sort({ from: 1 })
      .limit(limit)
      .toArray();
    return records.map(toDomain);
  }

  async markEvents(
    id: string,
    marks: { warnedEventAt?: Date; startedEventAt?: Date; endedEventAt?: Date; eventsDone: boolean },
  ): Promise<void> {
    if (marks.warnedEventAt)
      await this.records.updateOne({ _id: id, warnedEventAt: null }, { $set: { warnedEventAt: marks.warnedEventAt } });
    if (marks.startedEventAt)
      await this.records.updateOne({ _id: id, startedEventAt: null }, { $set: { startedEventAt: marks.startedEventAt } });
    if (marks.endedEventAt) await this.records.updateOne({ _id: id, endedEventAt: null }, { $set: { endedEventAt: marks.endedEventAt } });
    if (marks.eventsDone) await this.records.updateOne({ _id: id }, { $set: { eventsDone: true } });
  }

  async markSeriesEvents(
    id: string,
    expectedThrough: Date | null,
    marks: { eventsThrough: Date; eventMarks: string[]; eventsDone: boolean },
  ): Promise<void> {
    await this.records.updateOne(
      { _id: id, eventsThrough: expectedThrough },
      { $set: { eventsThrough: marks.eventsThrough, eventMarks: marks.eventMarks, eventsDone: marks.eventsDone } },
    );
  }
}
