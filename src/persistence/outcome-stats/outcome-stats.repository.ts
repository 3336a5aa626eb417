import { OutcomeTally, StatsResolution } from '../../domain/outcome-stats';

/** One key's counts over one minute, from one instance's interval (issue 39). */
export interface StatsIncrement {
  toolName: string;
  /** null = GLOBAL (every tenant's calls). */
  tenantId: string | null;
  minuteStartMs: number;
  tally: OutcomeTally;
}

/** A stored bucket document: an hour (its total and its minutes) or a day (its total). */
export interface StoredStatsBucket {
  id: string;
  resolution: StatsResolution;
  toolName: string;
  tenantId: string | null;
  startMs: number;
  total: OutcomeTally;
  /** Hour documents only, when asked for: minute of the hour (0…59) → its counts. */
  minutes: Map<number, OutcomeTally>;
}

export interface StatsRetention {
  /** How long an hour document (with its minutes) is kept after its hour ends. */
  hourMs: number;
  /** How long a day document is kept after its day ends. */
  dayMs: number;
}

/**
 * The port (and DI token) for outcome_stats (issue 39): per tool and tenant, one document
 * per hour (with its 60 minutes inside) and one per day, grown only by increments, so any number
 * of instances add to the same documents and nothing is ever read back before a write.
 */
export abstract class OutcomeStatsRepository {
  /**
   * Adds the increments to their hour and day documents: one upserting `$inc` per document
   * touched (several minutes of one hour are one update), in unordered bulk writes. Returns how
   * many documents were updated.
   */
  abstract increment(increments: readonly StatsIncrement[], retention: StatsRetention): Promise<number>;
  /** Documents by `_id` (statsBucketId), in one `$in`; minutes only when asked for. */
  abstract findByIds(ids: readonly string[], withMinutes: boolean): Promise<StoredStatsBucket[]>;
  /** Every tool's GLOBAL documents of one resolution with `fromMs <= start < untilMs` (the signals' snapshot). */
  abstract findGlobal(resolution: StatsResolution, fromMs: number, untilMs: number, withMinutes: boolean): Promise<StoredStatsBucket[]>;
  /** Removes documents whose `expiresAt` passed (where the database has no TTL monitor); returns how many. */
  abstract deleteExpired(before: Date): Promise<number>;
}
