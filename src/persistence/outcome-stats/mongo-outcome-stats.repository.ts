import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { Model } from 'mongoose';
import { HOUR_MS, DAY_MS, OutcomeTally, StatsResolution, emptyTally, floorTo, statsBucketId } from '../../domain/outcome-stats';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { OutcomeStatsRepository, StatsIncrement, StatsRetention, StoredStatsBucket } from './outcome-stats.repository';
import { OutcomeStatsRecord } from './outcome-stats.schema';

/** Updates per bulk write: a flush of many keys goes in a few round trips, none of them huge. */
const BULK_CHUNK = 500;

interface PendingDoc {
  id: string;
  resolution: StatsResolution;
  toolName: string;
  tenantId: string | null;
  startMs: number;
  expiresAt: Date;
  inc: Record<string, number>;
}

@Injectable()
export class MongoOutcomeStatsRepository extends OutcomeStatsRepository {
  private readonly records: Collection<OutcomeStatsRecord>;

  constructor(@InjectModel(OutcomeStatsRecord.name) model: Model<OutcomeStatsRecord>) {
    super();
    this.records = model.collection as unknown as Collection<OutcomeStatsRecord>;
  }

  async increment(increments: readonly StatsIncrement[], retention: StatsRetention): Promise<number> {
    const docs = incrementsByDocument(increments, retention);
    const operations: AnyBulkWriteOperation<OutcomeStatsRecord>[] = docs.map((d) => ({
      updateOne: {
        filter: { _id: d.id },
        update: {
          $setOnInsert: {
            res: d.resolution,
            toolName: d.toolName,
            tenantId: d.tenantId,
            start: new Date(d.startMs),
            expiresAt: d.expiresAt,
          },
          $inc: d.inc,
        } as Document,
        upsert: true,
      },
    }));
    for (let i = 0; i < operations.length; i += BULK_CHUNK) {
      await this.records.bulkWrite(operations.slice(i, i + BULK_CHUNK), { ordered: false });
    }
    return operations.length;
  }

  // `_id` $in: the `_id` index on MongoDB and mongo-java-server alike (D3a).
  async findByIds(ids: readonly string[], withMinutes: boolean): Promise<StoredStatsBucket[]> {
    if (ids.length === 0) return [];
    const records = await this.records.find({ _id: { $in: [...ids] } }, withMinutes ? {} : { projection: { m: 0 } }).toArray();
    return records.map((r) => toBucket(r as unknown as Record<string, unknown>));
  }

  // Served by { res: 1, tenantId: 1, start: 1 }.
  async findGlobal(resolution: StatsResolution, fromMs: number, untilMs: number, withMinutes: boolean): Promise<StoredStatsBucket[]> {
    const records = await this.records
      .find(
        { res: resolution, tenantId: null, start: { $gte: new Date(fromMs), $lt: new Date(untilMs) } },
        withMinutes ? {} : { projection: { m: 0 } },
      )
      .toArray();
    return records.map((r) => toBucket(r as unknown as Record<string, unknown>));
  }

  // Served by { expiresAt: 1 }.
  async deleteExpired(before: Date): Promise<number> {
    return (await this.records.deleteMany({ expiresAt: { $lt: before } })).deletedCount;
  }
}

/**
 * The documents a flush touches, each with one `$inc`: an increment adds its counts to its hour
 * document (the hour's total and its minute) and, at GLOBAL, to its day document.
 */
export function incrementsByDocument(increments: readonly StatsIncrement[], retention: StatsRetention): PendingDoc[] {
  const docs = new Map<string, PendingDoc>();
  const docFor = (resolution: StatsResolution, inc: StatsIncrement, periodMs: number, keepMs: number): PendingDoc => {
    const startMs = floorTo(inc.minuteStartMs, periodMs);
    const id = statsBucketId(resolution, inc.toolName, inc.tenantId, startMs);
    let doc = docs.get(id);
    if (!doc) {
      doc = {
        id,
        resolution,
        toolName: inc.toolName,
        tenantId: inc.tenantId,
        startMs,
        expiresAt: new Date(startMs + periodMs + keepMs),
        inc: {},
      };
      docs.set(id, doc);
    }
    return doc;
  };
  for (const inc of increments) {
    const hour = docFor(StatsResolution.HOUR, inc, HOUR_MS, retention.hourMs);
    addFields(hour.inc, '', inc.tally);
    addFields(hour.inc, `m.${Math.floor((inc.minuteStartMs - hour.startMs) / 60_000)}.`, inc.tally);
    // Day documents at GLOBAL only: the daily readers (uptime) are GLOBAL, and a tenant's day is its
    // hours — a tenant key costs one update per flush, not two (docs/scaling.md, P309).
    if (inc.tenantId === null) addFields(docFor(StatsResolution.DAY, inc, DAY_MS, retention.dayMs).inc, '', inc.tally);
  }
  return [...docs.values()];
}

function addFields(inc: Record<string, number>, prefix: string, t: OutcomeTally): void {
  const add = (field: string, n: number) => {
    if (n !== 0) inc[prefix + field] = (inc[prefix + field] ?? 0) + n;
  };
  add('ok', t.ok);
  add('fail', t.fail);
  add('timed', t.timed);
  add('sumMs', t.sumMs);
  for (const [code, n] of Object.entries(t.codes)) add(`c.${code}`, n);
  for (const [i, n] of Object.entries(t.hist)) add(`h.${i}`, n);
}

function toTally(r: Record<string, unknown>): OutcomeTally {
  const t = emptyTally();
  t.ok = Number(r.ok ?? 0);
  t.fail = Number(r.fail ?? 0);
  t.timed = Number(r.timed ?? 0);
  t.sumMs = Number(r.sumMs ?? 0);
  for (const [code, n] of Object.entries((r.c as Record<string, number> | undefined) ?? {})) t.codes[code as ToolErrorCode] = Number(n);
  for (const [i, n] of Object.entries((r.h as Record<string, number> | undefined) ?? {})) t.hist[Number(i)] = Number(n);
  return t;
}

function toBucket(r: Record<string, unknown>): StoredStatsBucket {
  const minutes = new Map<number, OutcomeTally>();
  for (const [minute, slot] of Object.entries((r.m as Record<string, Record<string, unknown>> | undefined) ?? {})) {
    minutes.set(Number(minute), toTally(slot));
  }
  return {
    id: String(r._id),
    resolution: r.res as StatsResolution,
    toolName: String(r.toolName),
    tenantId: (r.tenantId as string | null) ?? null,
    startMs: (r.start as Date).getTime(),
    total: toTally(r),
    minutes,
  };
}
