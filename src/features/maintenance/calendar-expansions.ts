import { MaintenanceWindow, occurrenceWindows } from '../../domain/maintenance-window';
import { CalendarEvent, calendarEvent } from './maintenance-calendar';

const DAY_MS = 86_400_000;

interface Expansion {
  version: number;
  day: number;
  events: CalendarEvent[];
}

/**
 * The calendar feed's expansion of each window, kept per window and version (P222). Expanding a
 * daily series over the feed's 60 days and writing its VEVENTs cost about 3 ms of event loop per
 * series, so 150 series held the loop for 335–486 ms on every request. Each window is now
 * expanded once per version and per UTC day, over a span one day longer than the feed's, so any
 * request of that day finds its coming occurrences ready; a change of the window (any write bumps
 * its version) or a new day expands it again. A request then only filters and merges what is
 * ready: its cost follows what it sends, not what is stored.
 */
export class CalendarExpansions {
  private readonly byId = new Map<string, Expansion>();

  constructor(
    private readonly days: number,
    /** At most this many occurrences are kept per window: the feed never sends more in all. */
    private readonly maxPerWindow: number,
  ) {}

  /** The events in force at `now` or starting before `until`, soonest first, at most `limit`. */
  coming(windows: readonly MaintenanceWindow[], now: Date, until: Date, limit: number): CalendarEvent[] {
    return this.feed(windows, now, until, limit).events;
  }

  /**
   * The same events, and the last instant the feed's content changed (for Last-Modified): a
   * window's last change, an occurrence's end (it left the feed) or the moment an occurrence
   * came within the feed's horizon (it entered it), whichever is latest and not after `now`.
   */
  feed(windows: readonly MaintenanceWindow[], now: Date, until: Date, limit: number): { events: CalendarEvent[]; lastModified: number } {
    const t = now.getTime();
    const end = until.getTime();
    const horizon = end - t;
    const day = Math.floor(t / DAY_MS) * DAY_MS;
    const seen = new Set<string>();
    const found: CalendarEvent[] = [];
    let lastModified = 0;
    for (const w of windows) {
      seen.add(w.id);
      lastModified = Math.max(lastModified, w.updatedAt.getTime());
      for (const e of this.expansionOf(w, day)) {
        if (e.from >= end) break; // sorted by start
        if (e.until > t) found.push(e);
        else lastModified = Math.max(lastModified, e.until);
      }
    }
    // Windows gone from the store (cancelled, ended, deleted) leave the cache with them.
    for (const id of this.byId.keys()) if (!seen.has(id)) this.byId.delete(id);
    found.sort((a, b) => a.from - b.from || (a.id < b.id ? -1 : 1));
    const events = found.length > limit ? found.slice(0, limit) : found;
    for (const e of events) lastModified = Math.max(lastModified, Math.min(t, e.from - horizon));
    return { events, lastModified: Math.min(lastModified, t) };
  }

  private expansionOf(w: MaintenanceWindow, day: number): CalendarEvent[] {
    const cached = this.byId.get(w.id);
    if (cached && cached.version === w.version && cached.day === day) return cached.events;
    const events = occurrenceWindows(w, new Date(day), new Date(day + (this.days + 1) * DAY_MS))
      .sort((a, b) => a.from.getTime() - b.from.getTime())
      .slice(0, this.maxPerWindow)
      .map(calendarEvent);
    this.byId.set(w.id, { version: w.version, day, events });
    return events;
  }
}
