import { useEffect, useState } from 'preact/hooks';
import { gql } from './api';
import type { ConsoleToolStatsQuery } from './graphql/generated';
import { TOOL_SIGNALS, TOOL_STATS } from './queries';
import { ErrorNote } from './ui';

// Issue 39: how a tool's calls have been going — success rate and latency over the last hour and
// day, the signals on now, and 30- and 90-day uptime bars — from GraphQL toolStats, toolUptime and
// toolSignals. Self-contained (styles inline) so the views that show it only mount it.

type ToolStatsAnswer = ConsoleToolStatsQuery;
type CallStats = ToolStatsAnswer['toolStats']['lastHour'];
export type UptimeDay = ToolStatsAnswer['toolUptime']['days'][number];

const COLORS = { ok: '#116329', degraded: '#7a4a00', down: '#a40e26', maintenance: '#0550ae', none: '#d0d7de' };

export function percent(rate: number | null, digits = 1): string {
  if (rate === null) return '—';
  // "75 %", "91.7 %", "99.16 %": as many digits as asked, none that are zeros at the end.
  return `${Number((rate * 100).toFixed(digits)).toString()} %`;
}

function ms(value: number | null): string {
  if (value === null) return '—';
  return value >= 1000 ? `${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)} s` : `${value} ms`;
}

/** The colour of a day: red with any outage worth a bar, amber when degraded, blue for maintenance only, grey when unknown. */
export function dayColour(d: UptimeDay): string {
  if (d.down >= 0.001) return COLORS.down;
  if (d.degraded >= 0.001) return COLORS.degraded;
  if (d.maintenance >= 0.001) return COLORS.maintenance;
  if (d.unknown >= 0.999) return COLORS.none;
  return COLORS.ok;
}

/** "2026-05-22: usable 75 %, down 16.7 %, maintenance 8.3 %; 4 calls, 75 % worked". */
export function dayText(d: UptimeDay): string {
  const parts = [`usable ${percent(d.usable)}`];
  if (d.down > 0) parts.push(`down ${percent(d.down)}`);
  if (d.degraded > 0) parts.push(`degraded ${percent(d.degraded)}`);
  if (d.maintenance > 0) parts.push(`maintenance ${percent(d.maintenance)}`);
  if (d.unknown > 0) parts.push(`unknown ${percent(d.unknown)}`);
  const calls = d.calls > 0 ? `; ${d.calls} calls, ${percent(d.successRate)} worked` : '; no calls';
  return `${d.day}: ${parts.join(', ')}${calls}`;
}

/** Uptime over days: usable / (usable + down), each day weighted alike (today by its part). */
export function uptimeOf(days: UptimeDay[]): number | null {
  let usable = 0;
  let down = 0;
  for (const d of days) {
    usable += d.usable;
    down += d.down;
  }
  return usable + down === 0 ? null : usable / (usable + down);
}

/** One bar per day, oldest left; each bar says its day in words (title and accessible name). */
export function UptimeBars({ days, label }: { days: UptimeDay[]; label: string }) {
  const uptime = uptimeOf(days);
  return (
    <figure data-testid={`uptime-${days.length}`} style={{ margin: '0.5rem 0' }}>
      <figcaption>
        {label}: <strong>{percent(uptime, 2)}</strong> uptime
      </figcaption>
      <ol
        aria-label={`${label}, one bar per day, oldest first`}
        style={{ display: 'flex', gap: '2px', listStyle: 'none', padding: 0, margin: '0.25rem 0', height: '2rem', alignItems: 'stretch' }}
      >
        {days.map((d) => (
          <li
            key={d.day}
            data-day={d.day}
            title={dayText(d)}
            aria-label={dayText(d)}
            style={{ flex: '1 1 0', minWidth: '2px', background: dayColour(d), borderRadius: '2px' }}
          />
        ))}
      </ol>
    </figure>
  );
}

function StatsLine({ label, s }: { label: string; s: CallStats }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{s.calls}</td>
      <td>{percent(s.successRate)}</td>
      <td>{ms(s.p50Ms)}</td>
      <td>{ms(s.p95Ms)}</td>
    </tr>
  );
}

/** The tool view's panel: the signals, the last hour and day, the 30- and 90-day bars. */
export function ToolStatsPanel({ apiKey, toolName }: { apiKey: string; toolName: string }) {
  const [data, setData] = useState<ToolStatsAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    gql(apiKey, TOOL_STATS, { toolName }).then(
      (d) => live && setData(d),
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [apiKey, toolName]);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p class="muted">Loading the statistics…</p>;
  const days = data.toolUptime.days;
  return (
    <section aria-label={`How ${toolName} has been doing`} data-testid="tool-stats">
      <h3>How its calls have been going (everyone)</h3>
      <p role="status" data-testid="tool-signals">
        {data.toolStats.signals?.text ? `Right now: ${data.toolStats.signals.text}.` : 'No signal: recent calls look as usual.'}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">Calls</th>
            <th scope="col">Worked</th>
            <th scope="col">Median</th>
            <th scope="col">95th percentile</th>
          </tr>
        </thead>
        <tbody>
          <StatsLine label="Last hour" s={data.toolStats.lastHour} />
          <StatsLine label="Last 24 hours" s={data.toolStats.lastDay} />
        </tbody>
      </table>
      <UptimeBars days={days.slice(-30)} label="Last 30 days" />
      <UptimeBars days={days} label="Last 90 days" />
      <p class="muted">
        Uptime: the share of each UTC day the tool was usable for everyone (OK, degraded or retested); planned maintenance is blue and not
        counted as downtime.
      </p>
    </section>
  );
}

/** The tools with a signal on, re-read every 30 s, for the Now board's column. */
export function useToolSignals(apiKey: string | null): Map<string, string> {
  const [signals, setSignals] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    if (!apiKey) return;
    let live = true;
    const read = () =>
      gql(apiKey, TOOL_SIGNALS).then(
        (d) => live && setSignals(new Map(d.toolSignals.map((s) => [s.toolName, s.signals.text ?? '']))),
        () => undefined,
      );
    void read();
    const timer = setInterval(read, 30_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [apiKey]);
  return signals;
}
