import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
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
  status: string;
  flags: Flag[];
  since: string | null;
  backAt: string | null;
  entry: Entry | null;
  windows: MaintenanceWindow[];
}

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
    rows.set(key, {
      key,
      toolName: entry.toolName,
      scope: entry.scope,
      scopeId: entry.scopeId,
      tenantId: entry.tenantId,
      status: retesting ? 'RETESTING' : entry.status,
      flags,
      since: entry.since,
      backAt: entry.pin && flags.includes('PINNED') ? entry.pin.until : entry.expectedRecoveryAt,
      entry,
      windows: [],
    });
  }
  for (const window of windows) {
    if (window.cancelledAt || new Date(window.until).getTime() <= now) continue;
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
        flags: [],
        since: null,
        backAt: null,
        entry: null,
        windows: [],
      };
      rows.set(key, row);
    }
    row.windows.push(window);
    if (!row.flags.includes('MAINTENANCE')) row.flags.push('MAINTENANCE');
    if (new Date(window.from).getTime() <= now) {
      row.status = 'DOWN';
      row.since ??= window.from;
      if (!row.backAt || new Date(row.backAt) < new Date(window.until)) row.backAt = window.until;
    }
  }
  return [...rows.values()].sort((a, b) => a.toolName.localeCompare(b.toolName) || a.key.localeCompare(b.key));
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
      (!tenant || tenantOf(row) === tenant) &&
      (!project || (row.scope === 'PROJECT' && row.scopeId === project)) &&
      (!f.flag || row.flags.includes(f.flag)),
  );
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
  const groups = useMemo(() => {
    const byTool = new Map<string, Row[]>();
    for (const row of shown) byTool.set(row.toolName, [...(byTool.get(row.toolName) ?? []), row]);
    return [...byTool.entries()];
  }, [shown]);
  const set = (part: Partial<Filters>) => setFilters((f) => ({ ...f, ...part }));
  // For the browser test's figures: when the board was last drawn (after the DOM update).
  useLayoutEffect(() => {
    performance.mark('console:board-rendered');
  }, [groups]);

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
        {shown.length} of {rows.length} entries not plainly OK, in {groups.length} tools
        {props.truncated ? ' (only the first 20 000 stored entries were read)' : ''}.
      </p>
      {groups.length === 0 && !props.loading ? <p class="all-ok">Everything is OK{rows.length ? ' for this filter' : ''}.</p> : null}
      {groups.map(([tool, list]) => (
        <section key={tool} class="group" aria-label={`Tool ${tool}`} data-tool={tool}>
          <h3>{tool}</h3>
          <table>
            <thead>
              <tr>
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
              {list.map((row) => (
                <tr key={row.key} data-row={row.key}>
                  <td>
                    <StatusBadge status={row.status} />
                  </td>
                  <td>{scopeLabel(row.scope, row.scopeId)}</td>
                  <td>{audience(row.scope, row.scopeId)}</td>
                  <td>
                    <Time iso={row.since} now={now} />
                  </td>
                  <td>
                    <Time iso={row.backAt} now={now} />
                  </td>
                  <td>
                    {row.entry?.lastDiagnosis
                      ? `${row.entry.lastDiagnosis.classification ?? row.entry.lastDiagnosis.code ?? ''} by ${row.entry.lastDiagnosis.by}${row.entry.lastDiagnosis.note ? `: ${row.entry.lastDiagnosis.note}` : ''}`
                      : '—'}
                  </td>
                  <td>
                    {row.flags
                      .filter((f) => f !== row.status)
                      .map((f) => (
                        <span class={`tag tag-${f.toLowerCase()}`}>{f === 'COOLDOWN' ? cooldownText(row, now) : f.toLowerCase()}</span>
                      ))}
                  </td>
                  <td data-testid="calls-now">{props.signals?.get(row.toolName) || '—'}</td>
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
        </section>
      ))}
    </section>
  );
}
