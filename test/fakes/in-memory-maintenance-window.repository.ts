import { MaintenanceWindow } from '../../src/domain/maintenance-window';
import {
  MaintenanceListFilter,
  MaintenanceWindowRepository,
} from '../../src/persistence/maintenance-windows/maintenance-window.repository';
import { copy } from './in-memory-database';

type Stored = MaintenanceWindow & { eventsDone: boolean };

const MAX_DURATION_MS = 31 * 24 * 3_600_000;

/** As the Mongo adapter's query: a one-off window not yet over, or a series not ended long ago (P190). */
function running(w: MaintenanceWindow, now: Date): boolean {
  if (w.until.getTime() > now.getTime()) return true;
  if (!w.recurrence) return false;
  return w.recurrence.endedAt === null || w.recurrence.endedAt.getTime() > now.getTime() - MAX_DURATION_MS;
}

/** As the Mongo adapter's toRecord: a window owes no more events once its end is recorded, or it was cancelled before it began. */
function eventsDone(window: MaintenanceWindow): boolean {
  if (window.recurrence) return false; // a series: its tick says when (P192)
  return (
    window.endedEventAt !== null ||
    (window.cancelledAt !== null && window.startedEventAt === null && window.cancelledAt.getTime() <= window.from.getTime())
  );
}

function toDomain(stored: Stored): MaintenanceWindow {
  const { eventsDone: _done, ...window } = copy(stored);
  return window;
}

/** MaintenanceWindowRepository in memory, with the Mongo adapter's guards (version-guarded replace, first writer of an event mark wins). */
export class InMemoryMaintenanceWindowRepository extends MaintenanceWindowRepository {
  readonly windows = new Map<string, Stored>();

  /** Stores windows as they are (a fixture). */
  seed(...windows: MaintenanceWindow[]): void {
    for (const w of windows) this.windows.set(w.id, { ...copy(w), eventsDone: eventsDone(w) });
  }

  async insert(window: MaintenanceWindow): Promise<void> {
    if (this.windows.has(window.id)) throw Object.assign(new Error(`E11000 duplicate key: ${window.id}`), { code: 11000 });
    this.seed(window);
  }

  async findById(id: string): Promise<MaintenanceWindow | null> {
    const stored = this.windows.get(id);
    return stored ? toDomain(stored) : null;
  }

  async replace(window: MaintenanceWindow, expectedVersion: number): Promise<boolean> {
    const stored = this.windows.get(window.id);
    if (!stored || stored.version !== expectedVersion) return false;
    // As the Mongo adapter: the tick's event marks are never written back from an admin's older read.
    this.seed({ ...window, warnedEventAt: stored.warnedEventAt, eventsThrough: stored.eventsThrough, eventMarks: stored.eventMarks });
    return true;
  }

  async findCurrent(now: Date, horizon: Date): Promise<MaintenanceWindow[]> {
    return [...this.windows.values()]
      .filter((w) => w.cancelledAt === null && running(w, now) && w.from.getTime() <= horizon.getTime())
      .map(toDomain);
  }

  async list(filter: MaintenanceListFilter): Promise<MaintenanceWindow[]> {
    return [...this.windows.values()]
      .filter(
        (w) =>
          (!filter.toolName || w.toolName === filter.toolName) &&
          (!filter.scope || w.scope === filter.scope) &&
          (filter.scopeId === undefined || w.scopeId === filter.scopeId) &&
          (filter.includeEnded || (w.cancelledAt === null && running(w, filter.now))),
      )
      .sort((a, b) => b.from.getTime() - a.from.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, filter.limit)
      .map(toDomain);
  }

  async findOwingEvents(now: Date, limit: number, leadMs = 0): Promise<MaintenanceWindow[]> {
    return [...this.windows.values()]
      .filter((w) => !w.eventsDone && earliestStart(w) <= now.getTime() + leadMs)
      .sort((a, b) => a.from.getTime() - b.from.getTime())
      .slice(0, limit)
      .map(toDomain);
  }

  async markEvents(
    id: string,
    marks: { warnedEventAt?: Date; startedEventAt?: Date; endedEventAt?: Date; eventsDone: boolean },
  ): Promise<void> {
    const stored = this.windows.get(id);
    if (!stored) return;
    if (marks.warnedEventAt && (stored.warnedEventAt ?? null) === null) stored.warnedEventAt = new Date(marks.warnedEventAt);
    if (marks.startedEventAt && stored.startedEventAt === null) stored.startedEventAt = new Date(marks.startedEventAt);
    if (marks.endedEventAt && stored.endedEventAt === null) stored.endedEventAt = new Date(marks.endedEventAt);
    if (marks.eventsDone) stored.eventsDone = true;
  }

  async markSeriesEvents(
    id: string,
    expectedThrough: Date | null,
    marks: { eventsThrough: Date; eventMarks: string[]; eventsDone: boolean },
  ): Promise<void> {
    const stored = this.windows.get(id);
    if (!stored || (stored.eventsThrough?.getTime() ?? null) !== (expectedThrough?.getTime() ?? null)) return;
    stored.eventsThrough = new Date(marks.eventsThrough);
    stored.eventMarks = [...marks.eventMarks];
    stored.eventsDone = marks.eventsDone;
  }
}

/** A window's first start: a series' first occurrence may have been moved earlier than its `from` alone. */
function earliestStart(w: MaintenanceWindow): number {
  return Math.min(w.from.getTime(), ...(w.recurrence?.overrides ?? []).map((o) => o.from.getTime()));
}
