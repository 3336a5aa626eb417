import { MaintenanceWindow, expandWindows } from './maintenance-window';
import { DAY_MS, OutcomeTally, judgedCalls, percentile, successRate } from './outcome-stats';
import { isPinNote, pinFromNote } from './pin';
import { Pin, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

/**
 * Issue 39: per day, how much of the time a tool was usable for everyone (its GLOBAL
 * entry), from its status history, its pins and its maintenance windows — maintenance counted
 * on its own line, not as an outage — and how its calls went that day (from the statistics).
 *
 * Each instant is judged as callers were told at GLOBAL (D20): a window in force → in
 * maintenance; else a pin in force → its status; else the stored status then in force, where a
 * DOWN or DEGRADED whose expected recovery has passed is RETESTING (listed plainly: usable).
 * Time before what the history still remembers (its ring buffer may have dropped older items) is
 * "unknown", never guessed. Days are UTC days; the current day counts up to `now`.
 */
export interface UptimeDay {
  /** The UTC day, "YYYY-MM-DD". */
  day: string;
  start: Date;
  /** Shares of the day's elapsed time (0…1); usable + down + maintenance + unknown = 1. */
  usable: number;
  /** The part of `usable` that was DEGRADED (intermittent), for the bar's colour. */
  degraded: number;
  down: number;
  maintenance: number;
  unknown: number;
  /** usable / (usable + down): the day's uptime leaving maintenance and unknown time aside; null if none of either. */
  uptime: number | null;
  /** Calls that said something about the tool (successes and tool-fault failures) that day. */
  calls: number;
  successRate: number | null;
  p95Ms: number | null;
}

export interface UptimeInput {
  /** The tool's GLOBAL document; null when none was ever written (then: usable throughout). */
  doc: Pick<ToolHealthDocument, 'status' | 'since' | 'expectedRecoveryAt' | 'history' | 'pin' | 'createdAt'> | null;
  /** The history limit the document was written with: a full ring may have dropped older items. */
  historyLimit: number;
  /** The tool's GLOBAL windows (one-off and series; cancelled ones included). */
  windows: readonly MaintenanceWindow[];
  /** Day start (ms) → that day's statistics at GLOBAL. */
  dayStats: ReadonlyMap<number, OutcomeTally>;
  days: number;
  now: Date;
}

type State = 'usable' | 'degraded' | 'down' | 'maintenance' | 'unknown';

interface Span {
  from: number;
  until: number;
}

interface StatusPoint {
  at: number;
  status: ToolStatus;
  recoveryAt: number | null;
}

export function uptimeDays(input: UptimeInput): UptimeDay[] {
  const now = input.now.getTime();
  const firstDay = Math.floor(now / DAY_MS) * DAY_MS - (input.days - 1) * DAY_MS;
  const rangeEnd = now;
  const maintenance = maintenanceSpans(input.windows, new Date(firstDay), new Date(rangeEnd));
  const pins = pinSpans(input.doc);
  const points = statusPoints(input.doc);
  const knownFrom = knownSince(input.doc, input.historyLimit);

  // Every instant at which the state may change, within the range.
  const cuts = new Set<number>([firstDay, rangeEnd]);
  for (let d = firstDay; d < rangeEnd; d += DAY_MS) cuts.add(d);
  const within = (t: number | null): t is number => t !== null && t > firstDay && t < rangeEnd;
  for (const s of [...maintenance, ...pins.map((p) => p.span)]) {
    if (within(s.from)) cuts.add(s.from);
    if (within(s.until)) cuts.add(s.until);
  }
  for (const p of points) {
    if (within(p.at)) cuts.add(p.at);
    if (within(p.recoveryAt)) cuts.add(p.recoveryAt);
  }
  if (within(knownFrom)) cuts.add(knownFrom);
  const sorted = [...cuts].sort((a, b) => a - b);

  const days: UptimeDay[] = [];
  for (let d = firstDay; d < rangeEnd; d += DAY_MS) {
    const dayEnd = Math.min(d + DAY_MS, rangeEnd);
    const time: Record<State, number> = { usable: 0, degraded: 0, down: 0, maintenance: 0, unknown: 0 };
    for (let i = 0; i < sorted.length - 1; i++) {
      const a = sorted[i];
      const b = sorted[i + 1];
      if (b <= d || a >= dayEnd) continue;
      time[stateAt(a, maintenance, pins, points, knownFrom)] += Math.min(b, dayEnd) - Math.max(a, d);
    }
    const total = dayEnd - d;
    const usableMs = time.usable + time.degraded;
    const stats = input.dayStats.get(d) ?? null;
    days.push({
      day: new Date(d).toISOString().slice(0, 10),
      start: new Date(d),
      usable: usableMs / total,
      degraded: time.degraded / total,
      down: time.down / total,
      maintenance: time.maintenance / total,
      unknown: time.unknown / total,
      uptime: usableMs + time.down === 0 ? null : usableMs / (usableMs + time.down),
      calls: stats ? judgedCalls(stats) : 0,
      successRate: stats ? successRate(stats) : null,
      p95Ms: stats ? percentile(stats, 0.95) : null,
    });
  }
  return days;
}

function stateAt(
  t: number,
  maintenance: Span[],
  pins: { span: Span; status: Pin['status'] }[],
  points: StatusPoint[],
  knownFrom: number | null,
): State {
  if (maintenance.some((s) => s.from <= t && t < s.until)) return 'maintenance';
  // The latest pin started at or before t that still runs at t.
  let pin: Pin['status'] | null = null;
  let pinFrom = -Infinity;
  for (const p of pins) {
    if (p.span.from <= t && t < p.span.until && p.span.from >= pinFrom) {
      pin = p.status;
      pinFrom = p.span.from;
    }
  }
  if (pin !== null) return pin === ToolStatus.DOWN ? 'down' : 'usable';
  if (knownFrom === null || t < knownFrom) return 'unknown';
  let point: StatusPoint | null = null;
  for (const p of points) if (p.at <= t) point = p;
  if (!point || point.status === ToolStatus.OK) return 'usable';
  if (point.recoveryAt !== null && point.recoveryAt <= t) return 'usable'; // RETESTING: listed plainly, the next call tries it
  return point.status === ToolStatus.DOWN ? 'down' : 'degraded';
}

/** Windows as time spans over the range: series expanded, a cancellation cutting its window short. */
function maintenanceSpans(windows: readonly MaintenanceWindow[], start: Date, end: Date): Span[] {
  const spans: Span[] = [];
  for (const w of expandWindows(windows, start, end)) {
    const until = Math.min(w.until.getTime(), w.cancelledAt ? w.cancelledAt.getTime() : Infinity);
    if (until > w.from.getTime()) spans.push({ from: w.from.getTime(), until });
  }
  return spans;
}

/** The stored status over time: each history item from its instant on, the current status from `since`. */
function statusPoints(doc: UptimeInput['doc']): StatusPoint[] {
  if (!doc) return [];
  const points: StatusPoint[] = doc.history.map((h) => ({
    at: h.at.getTime(),
    status: h.status,
    recoveryAt: h.recoveryAt ? h.recoveryAt.getTime() : null,
  }));
  // The document's own fields are the truth from `since` on (its last item may be older, or gone).
  const last = points[points.length - 1];
  if (!last || last.at < doc.since.getTime()) {
    points.push({ at: doc.since.getTime(), status: doc.status, recoveryAt: doc.expectedRecoveryAt?.getTime() ?? null });
  }
  return points.sort((a, b) => a.at - b.at);
}

/**
 * From when the status is known: always, without a document (nothing known = usable); from the
 * document's creation when its history still holds every item; else from its oldest item.
 */
function knownSince(doc: UptimeInput['doc'], historyLimit: number): number | null {
  if (!doc) return -Infinity;
  if (doc.history.length < historyLimit) return -Infinity;
  const oldest = Math.min(...doc.history.map((h) => h.at.getTime()), doc.since.getTime());
  return oldest;
}

/** Pins over time: each "pinned" history item runs until its `until` or the next pin item; the current pin too. */
function pinSpans(doc: UptimeInput['doc']): { span: Span; status: Pin['status'] }[] {
  if (!doc) return [];
  const spans: { span: Span; status: Pin['status'] }[] = [];
  const items = [...doc.history].sort((a, b) => a.at.getTime() - b.at.getTime());
  items.forEach((item, i) => {
    const pinned = pinFromNote(item.note);
    if (!pinned) return;
    const next = items.slice(i + 1).find((later) => isPinNote(later.note));
    const end = Math.min(pinned.until.getTime(), next ? next.at.getTime() : Infinity);
    spans.push({ span: { from: item.at.getTime(), until: end }, status: pinned.status });
  });
  if (doc.pin) spans.push({ span: { from: doc.pin.at.getTime(), until: doc.pin.until.getTime() }, status: doc.pin.status });
  return spans;
}
