import {
  DAY_MS,
  HOUR_MS,
  OutcomeTally,
  StatsResolution,
  emptyTally,
  floorTo,
  mergeInto,
  statsBucketId,
} from '../../src/domain/outcome-stats';
import {
  OutcomeStatsRepository,
  StatsIncrement,
  StatsRetention,
  StoredStatsBucket,
} from '../../src/persistence/outcome-stats/outcome-stats.repository';

interface Bucket extends StoredStatsBucket {
  expiresAt: number;
}

function copyTally(t: OutcomeTally): OutcomeTally {
  return mergeInto(emptyTally(), t);
}

function copyBucket(b: Bucket, withMinutes: boolean): StoredStatsBucket {
  const minutes = new Map<number, OutcomeTally>();
  if (withMinutes) for (const [m, t] of b.minutes) minutes.set(m, copyTally(t));
  return {
    id: b.id,
    resolution: b.resolution,
    toolName: b.toolName,
    tenantId: b.tenantId,
    startMs: b.startMs,
    total: copyTally(b.total),
    minutes,
  };
}

/** OutcomeStatsRepository in memory: each increment added to its hour document (total and minute) and, at GLOBAL, its day document, like the `$inc` upserts. */
export class InMemoryOutcomeStatsRepository extends OutcomeStatsRepository {
  readonly buckets = new Map<string, Bucket>();
  /** How many document updates the increments cost, as the database would count them. */
  updates = 0;

  async increment(increments: readonly StatsIncrement[], retention: StatsRetention): Promise<number> {
    const touched = new Set<string>();
    for (const inc of increments) {
      const hour = this.bucket(StatsResolution.HOUR, inc, HOUR_MS, retention.hourMs);
      mergeInto(hour.total, inc.tally);
      const minute = Math.floor((inc.minuteStartMs - hour.startMs) / 60_000);
      mergeInto(hour.minutes.get(minute) ?? hour.minutes.set(minute, emptyTally()).get(minute)!, inc.tally);
      touched.add(hour.id);
      if (inc.tenantId !== null) continue; // day documents at GLOBAL only
      const day = this.bucket(StatsResolution.DAY, inc, DAY_MS, retention.dayMs);
      mergeInto(day.total, inc.tally);
      touched.add(day.id);
    }
    this.updates += touched.size;
    return touched.size;
  }

  private bucket(resolution: StatsResolution, inc: StatsIncrement, periodMs: number, keepMs: number): Bucket {
    const startMs = floorTo(inc.minuteStartMs, periodMs);
    const id = statsBucketId(resolution, inc.toolName, inc.tenantId, startMs);
    let b = this.buckets.get(id);
    if (!b) {
      b = {
        id,
        resolution,
        toolName: inc.toolName,
        tenantId: inc.tenantId,
        startMs,
        total: emptyTally(),
        minutes: new Map(),
        expiresAt: startMs + periodMs + keepMs,
      };
      this.buckets.set(id, b);
    }
    return b;
  }

  async findByIds(ids: readonly string[], withMinutes: boolean): Promise<StoredStatsBucket[]> {
    return ids.filter((id) => this.buckets.has(id)).map((id) => copyBucket(this.buckets.get(id)!, withMinutes));
  }

  async findGlobal(resolution: StatsResolution, fromMs: number, untilMs: number, withMinutes: boolean): Promise<StoredStatsBucket[]> {
    return [...this.buckets.values()]
      .filter((b) => b.resolution === resolution && b.tenantId === null && b.startMs >= fromMs && b.startMs < untilMs)
      .map((b) => copyBucket(b, withMinutes));
  }

  async deleteExpired(before: Date): Promise<number> {
    let deleted = 0;
    for (const [id, b] of this.buckets) {
      if (b.expiresAt < before.getTime()) {
        this.buckets.delete(id);
        deleted++;
      }
    }
    return deleted;
  }
}
