import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Entry, EntryKey, MaintenanceWindow } from './types';
import { Field, StatusBadge, Time, audience, isRetesting, relative, scopeLabel } from './ui';

/** Why a row is on the board: every reason an entry is not plainly OK. */
export type Flag = 'DOWN' | 'DEGRADED' | 'RETESTING' | 'PINNED' | 'MAINTENANCE' | 'COOLDOWN';
export const FLAGS: Flag[] = ['DOWN', 'DEGRADED', 'RETESTING', 'PINNED', 'MAINTENANCE', 'COOLDOWN'];

export interface Row {
  key: string;
  toolName: string;
  scope: Entry['scope'];
  scopeId: string | null;
  tenantId: string | null;
  /** The status callers get at this scope: a pin in force wins, maintenance in force is DOWN. */
  status: string;
  /** The stored status, when the one callers get differs from it (a pin, maintenance). */
  storedStatus: string | null;
  flags: Flag[];
  since: string | null;
  /** When the tool is expected back (never a pin's end: that is `pinnedUntil`). */
  backAt: string | null;
  pinnedUntil: string | null;
  entry: Entry | null;
  windows: MaintenanceWindow[];
}

const DAY_MS = 86_400_000;
/** How long a new DOWN row stays marked. */
const FRESH_MS = 60_000;

function tenantOf(row: Pick<Row, 'scope' | 'scopeId' | 'tenantId'>): string | null {
  return row.scope === 'TENANT' ? row.scopeId : row.tenantId;
}

/** The rows of the board at `now`: non-OK entries, and windows in force or ahead (one row per key). */
export function boardRows(entries: Iterable<Entry>, windows: MaintenanceWindow[], now: number): Row[] {
  const rows = new Map<string, Row>();
  for (const entry of entries) {
    const flags: Flag[] = [];
    const retesting = isRetesting(entry, now);
    if (retesting) flags.push('RETESTING');
    else if (entry.status === 'DOWN' || entry.status === 'DEGRADED') flags.push(entry.status);
    if (entry.pin && new Date(entry.pin.until).getTime() > now) flags.push('PINNED');
    if (entry.cooldowns.some((c) => new Date(c.nextSpawnAllowedAt).getTime() > now)) flags.push('COOLDOWN');
    if (!flags.length) continue;
    const key = `${entry.toolName}|${entry.scope}|${entry.scopeId ?? ''}`;
    const stored = retesting ? 'RETESTING' : entry.status;
    const pinned = entry.pin && flags.includes('PINNED') ? entry.pin : null;
    rows.set(key, {
      key,
      toolName: entry.toolName,
      scope: entry.scope,
      scopeId: entry.scopeId,
      tenantId: entry.tenantId,
      status: pinned ? pinned.status : stored,
      storedStatus: pinned && pinned.status !== stored ? stored : null,
      flags,
      // A pin's end is not a recovery: it is shown as "pinned until", the stored estimate stays as it is.
      since: entry.since && new Date(entry.since).getTime() <= now ? entry.since : null,
      backAt: pinned ? null : entry.expectedRecoveryAt,
      pinnedUntil: pinned ? pinned.until : null,
      entry,
      windows: [],
    });
  }
  for (const window of windows) {
    // Windows in force or starting within a day: one four days away is not news on the board.
    if (window.cancelledAt || new Date(window.until).getTime() <= now || new Date(window.from).getTime() - now > DAY_MS) continue;
    const key = `${window.toolName}|${window.scope}|${window.scopeId ?? ''}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        key,
        toolName: window.toolName,
        scope: window.scope,
        scopeId: window.scopeId,
        tenantId: null,
        status: 'OK',
        storedStatus: null,
        flags: [],
        since: null,
        backAt: null,
        pinnedUntil: null,
        entry: null,
        windows: [],
      };
      rows.set(key, row);
    }
    row.windows.push(window);
    if (!row.flags.includes('MAINTENANCE')) row.flags.push('MAINTENANCE');
    // In force, and not under a pin (a pin wins over maintenance): the key reads DOWN.
    if (new Date(window.from).getTime() <= now && !row.pinnedUntil) {
      if (row.status !== 'DOWN') row.storedStatus ??= row.entry ? row.status : null;
      row.status = 'DOWN';
      row.since ??= window.from;
      if (!row.backAt || new Date(row.backAt) < new Date(window.until)) row.backAt = window.until;
    }
  }
  return [...rows.values()].sort(
    (a, b) => triageRank(a) - triageRank(b) || a.toolName.localeCompare(b.toolName) || a.key.localeCompare(b.key),
  );
}

const BREADTH: Record<Entry['scope'], number> = { GLOBAL: 0, TENANT: 1, PROJECT: 2, USER: 3, SESSION: 4 };

/**
 * Worst first: DOWN (for everyone first, then by breadth of scope), then DEGRADED the same way,
 * then pins, maintenance starting within a day, retesting and cooldowns alone.
 */
export function triageRank(row: Row): number {
  const breadth = BREADTH[row.scope];
  if (row.status === 'DOWN') return breadth;
  if (row.status === 'DEGRADED') return 10 + breadth;
  if (row.flags.includes('PINNED')) return 20 + breadth;
  if (row.flags.includes('MAINTENANCE')) return 30 + breadth;
  if (row.status === 'RETESTING') return 50 + breadth;
  return 60 + breadth;
}

/** How many tools are DOWN or DEGRADED for everyone (GLOBAL), per tenant, and at narrower scopes; windows in force. */
export function summary(rows: Row[], now: number): { down: number; degraded: number; tenants: number; narrower: number; inForce: number } {
  const tools = (status: string) => new Set(rows.filter((r) => r.scope === 'GLOBAL' && r.status === status).map((r) => r.toolName)).size;
  return {
    down: tools('DOWN'),
    degraded: tools('DEGRADED'),
    tenants: rows.filter((r) => r.scope === 'TENANT' && (r.status === 'DOWN' || r.status === 'DEGRADED')).length,
    narrower: rows.filter((r) => ['PROJECT', 'USER', 'SESSION'].includes(r.scope) && (r.status === 'DOWN' || r.status === 'DEGRADED'))
      .length,
    inForce: rows.reduce(
      (n, r) => n + r.windows.filter((w) => new Date(w.from).getTime() <= now && new Date(w.until).getTime() > now).length,
      0,
    ),
  };
}

export interface Filters {
  tenant: string;
  project: string;
  tool: string;
  flag: '' | Flag;
}

export function filterRows(rows: Row[], f: Filters): Row[] {
  const tool = f.tool.trim().toLowerCase();
  const tenant = f.tenant.trim();
  const project = f.project.trim();
  return rows.filter(
    (row) =>
      (!tool || row.toolName.toLowerCase().includes(tool)) &&
      // A tenant is affected by its own entries, by GLOBAL ones and by entries stored without a tenant.
      (!tenant || row.scope === 'GLOBAL' || tenantOf(row) === tenant || tenantOf(row) === null) &&
      (!project || (row.scope === 'PROJECT' && row.scopeId === project)) &&
      (!f.flag || row.flags.includes(f.flag)),
  );
}

/** A tag's words: a cooldown with its end, maintenance with its times. */
function tagText(flag: Flag, row: Row, now: number): string {
  if (flag === 'COOLDOWN') return cooldownText(row, now);
  if (flag === 'MAINTENANCE') {
    const next = row.windows.find((w) => new Date(w.until).getTime() > now);
    return next ? `maintenance ${next.from.slice(11, 16)}–${next.until.slice(11, 16)}Z (${relative(next.from, now)})` : 'maintenance';
  }
  return flag.toLowerCase();
}

/** "cooldown until 14:05Z (in 12 min)": the last running cooldown's end. */
function cooldownText(row: Row, now: number): string {
  const ends = (row.entry?.cooldowns ?? []).map((c) => new Date(c.nextSpawnAllowedAt).getTime()).filter((t) => t > now);
  if (!ends.length) return 'cooldown';
  const last = new Date(Math.max(...ends)).toISOString();
  return `${ends.length > 1 ? `${ends.length} cooldowns` : 'cooldown'} until ${last.slice(11, 16)}Z (${relative(last, now)})`;
}

function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function NowView(props: {
  entries: Map<string, Entry>;
  windows: MaintenanceWindow[];
  /** Issue 39: tool → its signals in words (failing often, slow), for the "Calls now" column. */
  signals?: Map<string, string>;
  loading: boolean;
  truncated: boolean;
  onOpen: (key: EntryKey) => void;
  onReload: () => void;
}) {
  const now = useNow(15_000);
  const [filters, setFilters] = useState<Filters>({ tenant: '', project: '', tool: '', flag: '' });
  const rows = useMemo(() => boardRows(props.entries.values(), props.windows, now), [props.entries, props.windows, now]);
  const shown = useMemo(() => filterRows(rows, filters), [rows, filters]);
  const tools = useMemo(() => new Set(shown.map((row) => row.toolName)).size, [shown]);
  // A row of the worst class (DOWN) that appears while the board is open is marked for a while,
  // without moving the focus: the first read of the board marks nothing.
  const seen = useRef<Set<string> | null>(null);
  const loadStarted = useRef(false);
  const [fresh, setFresh] = useState<Map<string, number>>(new Map());
  // A layout effect: the mark is set before the browser paints, so a new row never shows unmarked.
  useLayoutEffect(() => {
    if (props.loading) {
      loadStarted.current = true;
      return;
    }
    if (!loadStarted.current) return; // the first read has not begun: nothing to compare with yet
    const keys = new Set(rows.map((r) => r.key));
    if (seen.current) {
      const added = rows.filter((r) => r.status === 'DOWN' && !seen.current!.has(r.key)).map((r) => r.key);
      if (added.length) setFresh((old) => new Map([...old, ...added.map((k): [string, number] => [k, Date.now()])]));
    }
    seen.current = keys;
  }, [rows, props.loading]);
  useEffect(() => {
    if (!fresh.size) return;
    const timer = setTimeout(() => setFresh((old) => new Map([...old].filter(([, at]) => Date.now() - at < FRESH_MS))), FRESH_MS);
    return () => clearTimeout(timer);
  }, [fresh]);
  const sum = useMemo(() => summary(rows, now), [rows, now]);
  // The tab's title says when a tool is DOWN for everyone, so a new outage is seen from another tab.
  useEffect(() => {
    document.title = `${sum.down ? `(${sum.down} DOWN) ` : ''}Tool availability — operator console`;
  }, [sum.down]);
  const set = (part: Partial<Filters>) => setFilters((f) => ({ ...f, ...part }));
  // For the browser test's figures: when the board was last drawn (after the DOM update).
  useLayoutEffect(() => {
    performance.mark('console:board-rendered');
  }, [shown]);

  return (
    <section aria-labelledby="now-title">
      <h2 id="now-title">Now: what is not OK, and for whom</h2>
      <form class="filters" role="search" aria-label="Filter the board" onSubmit={(e) => e.preventDefault()}>
        <Field label="Tenant">
          <input name="tenant" value={filters.tenant} onInput={(e) => set({ tenant: e.currentTarget.value })} />
        </Field>
        <Field label="Project">
          <input name="project" value={filters.project} onInput={(e) => set({ project: e.currentTarget.value })} />
        </Field>
        <Field label="Tool">
          <input name="tool" value={filters.tool} onInput={(e) => set({ tool: e.currentTarget.value })} />
        </Field>
        <Field label="Status">
          <select name="status" value={filters.flag} onChange={(e) => set({ flag: e.currentTarget.value as Filters['flag'] })}>
            <option value="">any</option>
            {FLAGS.map((f) => (
              <option value={f}>{f.toLowerCase()}</option>
            ))}
          </select>
        </Field>
        <button type="button" onClick={props.onReload}>
          Reload
        </button>
      </form>
      <p role="status" data-testid="now-count">
        {props.loading ? 'Loading… ' : ''}
        {shown.length} of {rows.length} entries not plainly OK, in {tools} tools
        {props.truncated ? ' (only the first 20 000 stored entries were read)' : ''}.
      </p>
      <p class="summary" data-testid="now-summary">
        <strong>{sum.down}</strong> tools DOWN for everyone · <strong>{sum.degraded}</strong> DEGRADED for everyone · {sum.tenants}{' '}
        tenant-wide problems · {sum.narrower} at a project, user or session · {sum.inForce} maintenance windows in force
      </p>
      {shown.length === 0 && !props.loading ? <p class="all-ok">Everything is OK{rows.length ? ' for this filter' : ''}.</p> : null}
      {shown.length > 0 ? (
        <div class="table-scroll">
          <table class="board stack">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Status</th>
                <th scope="col">Scope</th>
                <th scope="col">Affects</th>
                <th scope="col">Since</th>
                <th scope="col">Expected back</th>
                <th scope="col">Last diagnosis</th>
                <th scope="col">Also</th>
                <th scope="col">Calls now</th>
                <th scope="col">
                  <span class="sr-only">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.key} data-row={row.key} data-tool={row.toolName} class={fresh.has(row.key) ? 'row-new' : undefined}>
                  <th scope="row">{row.toolName}</th>
                  <td data-label="Status">
                    <StatusBadge status={row.status} />
                    {row.storedStatus ? <span class="muted"> stored {row.storedStatus}</span> : null}
                  </td>
                  <td data-label="Scope">{scopeLabel(row.scope, row.scopeId)}</td>
                  <td data-label="Affects">{audience(row.scope, row.scopeId)}</td>
                  <td data-label="Since">
                    <Time iso={row.since} now={now} />
                  </td>
                  <td data-label="Expected back">
                    {row.pinnedUntil ? (
                      <span>
                        pinned until <Time iso={row.pinnedUntil} now={now} />
                      </span>
                    ) : (
                      <Time iso={row.backAt} now={now} />
                    )}
                  </td>
                  <td data-label="Last diagnosis">
                    {row.entry?.lastDiagnosis
                      ? `${row.entry.lastDiagnosis.classification ?? row.entry.lastDiagnosis.code ?? ''} by ${row.entry.lastDiagnosis.by}${row.entry.lastDiagnosis.note ? `: ${row.entry.lastDiagnosis.note}` : ''}`
                      : '—'}
                  </td>
                  <td data-label="Also">
                    {row.flags
                      .filter((f) => f !== row.status)
                      .map((f) => (
                        <span class={`tag tag-${f.toLowerCase()}`}>{tagText(f, row, now)}</span>
                      ))}
                  </td>
                  <td data-label="Calls now" data-testid="calls-now">
                    {props.signals?.get(row.toolName) || '—'}
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Open ${row.toolName} at ${scopeLabel(row.scope, row.scopeId)}`}
                      onClick={() => props.onOpen({ toolName: row.toolName, scope: row.scope, scopeId: row.scopeId })}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
