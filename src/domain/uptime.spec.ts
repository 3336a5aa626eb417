import { HOUR, aHistoryItem, aMaintenanceWindow, aToolHealthDocument, at } from '../../test/factories/documents';
import { DAY_MS, addRecord, emptyTally } from './outcome-stats';
import { pinEntry, unpinEntry } from './pin';
import { ToolErrorCode } from './tool-error-code';
import { ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';
import { uptimeDays } from './uptime';

const DAY = DAY_MS;
const LIMIT = 20;
const D = DAY; // 2026-01-02, the day under test (T0 + 1 day)

function statusItem(offset: number, status: ToolStatus, recoveryAt: Date | null = null) {
  return aHistoryItem({ at: at(offset), status, recoveryAt, note: null });
}

/** A GLOBAL document created at T0, DOWN 06:00–12:00 of day D. */
function outageDoc(): ToolHealthDocument {
  return aToolHealthDocument({
    history: [statusItem(D + 6 * HOUR, ToolStatus.DOWN), statusItem(D + 12 * HOUR, ToolStatus.OK)],
    status: ToolStatus.OK,
    since: at(D + 12 * HOUR),
  });
}

function pinned(doc: ToolHealthDocument, status: ToolStatus.OK | ToolStatus.DOWN, from: number, until: number, liftAt?: number) {
  let out = pinEntry({
    key: doc,
    status,
    until: at(until),
    reason: 'checked by hand',
    by: 'admin:ops',
    now: at(from),
    historyLimit: LIMIT,
  })(doc)!;
  if (liftAt !== undefined) out = unpinEntry({ by: 'admin:ops', now: at(liftAt), historyLimit: LIMIT })(out)!;
  return out;
}

const base = { historyLimit: LIMIT, dayStats: new Map(), days: 2, now: at(D + DAY + HOUR) };

describe('uptime per day', () => {
  it('is the share of the day usable, outages from the status history, maintenance on its own line', () => {
    const windows = [aMaintenanceWindow({ from: at(D + 18 * HOUR), until: at(D + 20 * HOUR) })];
    const [day, today] = uptimeDays({ ...base, doc: outageDoc(), windows });
    expect(day.day).toBe('2026-01-02');
    expect(day.down).toBeCloseTo(6 / 24);
    expect(day.maintenance).toBeCloseTo(2 / 24);
    expect(day.usable).toBeCloseTo(16 / 24);
    expect(day.unknown).toBe(0);
    expect(day.uptime).toBeCloseTo(16 / 22);
    // The current day counts up to now only.
    expect(today).toMatchObject({ day: '2026-01-03', usable: 1, down: 0, uptime: 1 });
  });

  it('reads a pin as the status callers got while it ran, and its end from the history after it was lifted', () => {
    // DOWN from 06:00, pinned OK 08:00–14:00 but lifted at 10:00, OK again at 12:00: usable 08:00–10:00 inside the outage.
    const down = aToolHealthDocument({
      history: [statusItem(D + 6 * HOUR, ToolStatus.DOWN)],
      status: ToolStatus.DOWN,
      since: at(D + 6 * HOUR),
    });
    const lifted = pinned(down, ToolStatus.OK, D + 8 * HOUR, D + 14 * HOUR, D + 10 * HOUR);
    const doc = {
      ...lifted,
      status: ToolStatus.OK,
      since: at(D + 12 * HOUR),
      history: [...lifted.history, statusItem(D + 12 * HOUR, ToolStatus.OK)],
    };
    const [day] = uptimeDays({ ...base, doc, windows: [] });
    expect(day.down).toBeCloseTo(4 / 24);
    // A pin DOWN still in force makes a healthy time down.
    const pinnedDown = pinned(aToolHealthDocument(), ToolStatus.DOWN, D + 22 * HOUR, D + 26 * HOUR);
    const [d2, t2] = uptimeDays({ ...base, doc: pinnedDown, windows: [] });
    expect(d2.down).toBeCloseTo(2 / 24);
    expect(t2.down).toBe(1);
  });

  it('lets a window in force win over a pin, and a cancellation cut the window short', () => {
    const doc = pinned(aToolHealthDocument(), ToolStatus.OK, D, D + DAY);
    const windows = [
      aMaintenanceWindow({ from: at(D + HOUR), until: at(D + 5 * HOUR), cancelledAt: at(D + 2 * HOUR) }),
      aMaintenanceWindow({ id: 'w2', from: at(D + 10 * HOUR), until: at(D + 11 * HOUR), cancelledAt: at(D) }),
    ];
    const [day] = uptimeDays({ ...base, doc, windows });
    expect(day.maintenance).toBeCloseTo(1 / 24);
    expect(day.usable).toBeCloseTo(23 / 24);
  });

  it('counts a DOWN past its expected recovery as usable (retesting) and DEGRADED as usable but degraded', () => {
    const doc = aToolHealthDocument({
      history: [statusItem(D, ToolStatus.DOWN, at(D + 2 * HOUR)), statusItem(D + 12 * HOUR, ToolStatus.DEGRADED)],
      status: ToolStatus.DEGRADED,
      since: at(D + 12 * HOUR),
    });
    const [day] = uptimeDays({ ...base, doc, windows: [] });
    expect(day.down).toBeCloseTo(2 / 24);
    expect(day.degraded).toBeCloseTo(12 / 24);
    expect(day.usable).toBeCloseTo(22 / 24);
  });

  it('says "unknown" for time a full history ring no longer remembers, and usable throughout with no document', () => {
    const history = Array.from({ length: LIMIT }, (_, i) =>
      statusItem(D + 12 * HOUR + i * 60_000, i % 2 ? ToolStatus.OK : ToolStatus.DOWN),
    );
    const doc = aToolHealthDocument({ history, status: ToolStatus.OK, since: history[LIMIT - 1].at });
    const [day] = uptimeDays({ ...base, doc, windows: [] });
    expect(day.unknown).toBeCloseTo(12 / 24);
    expect(uptimeDays({ ...base, doc: null, windows: [] }).map((d) => d.usable)).toEqual([1, 1]);
  });

  it('carries the day’s calls, success rate and p95 from the statistics', () => {
    const stats = emptyTally();
    for (let i = 0; i < 9; i++) addRecord(stats, { ok: true, durationMs: 100 });
    addRecord(stats, { ok: false, code: ToolErrorCode.BACKEND_FAILED, durationMs: 100 });
    const [day, today] = uptimeDays({ ...base, doc: null, windows: [], dayStats: new Map([[at(D).getTime(), stats]]) });
    expect(day).toMatchObject({ calls: 10, successRate: 0.9 });
    expect(day.p95Ms).toBeGreaterThan(70);
    expect(today).toMatchObject({ calls: 0, successRate: null, p95Ms: null });
  });
});
