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
  /** Not cancelled, `until > now`, `from <= horizon`: what a call may be governed by soon. */
  abstract findCurrent(now: Date, horizon: Date): Promise<MaintenanceWindow[]>;
  abstract list(filter: MaintenanceListFilter): Promise<MaintenanceWindow[]>;
  /** Windows that may owe a start or end event at `now` (P77). */
  abstract findOwingEvents(now: Date, limit: number): Promise<MaintenanceWindow[]>;
  /** Records that an event was written; only the first writer of each field wins. */
  abstract markEvents(id: string, marks: { startedEventAt?: Date; endedEventAt?: Date; eventsDone: boolean }): Promise<void>;
}
