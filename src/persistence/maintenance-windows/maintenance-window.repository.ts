import { MaintenanceWindow } from '../../domain/maintenance-window';
import { Scope } from '../../domain/scope';

export interface MaintenanceListFilter {
  toolName?: string;
  scope?: Scope;
  scopeId?: string | null;
  /** Also windows that ended or were cancelled before `now`. */
  includeEnded: boolean;
  now: Date;
  limit: number;
}

/** The port (and DI token) for maintenance_windows (issue 16). */
export abstract class MaintenanceWindowRepository {
  abstract insert(window: MaintenanceWindow): Promise<void>;
  abstract findById(id: string): Promise<MaintenanceWindow | null>;
  /** Replaces the stored window if its version is still `expectedVersion`; false on a lost race. */
  abstract replace(window: MaintenanceWindow, expectedVersion: number): Promise<boolean>;
  /**
   * Not cancelled, `from <= horizon`, and `until > now` — or (P190) a series not ended before
   * `now` less the longest window: what a call may be governed by soon (series still to expand).
   */
  abstract findCurrent(now: Date, horizon: Date): Promise<MaintenanceWindow[]>;
  abstract list(filter: MaintenanceListFilter): Promise<MaintenanceWindow[]>;
  /** Windows that may owe a warning, start or end event at `now` (P77, P192): a start (the series' own, or an occurrence moved earlier) at or before `now + leadMs`. */
  abstract findOwingEvents(now: Date, limit: number, leadMs?: number): Promise<MaintenanceWindow[]>;
  /** Records that an event was written; only the first writer of each field wins. */
  abstract markEvents(
    id: string,
    marks: { warnedEventAt?: Date; startedEventAt?: Date; endedEventAt?: Date; eventsDone: boolean },
  ): Promise<void>;
  /** Stores a series' event bookkeeping if `eventsThrough` is still `expectedThrough` (a lost race changes nothing) (P192). */
  abstract markSeriesEvents(
    id: string,
    expectedThrough: Date | null,
    marks: { eventsThrough: Date; eventMarks: string[]; eventsDone: boolean },
  ): Promise<void>;
}
