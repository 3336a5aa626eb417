import { useState } from 'preact/hooks';
import { gql } from './api';
import { Action, ReadOnlyNote } from './actions';
import { CANCEL_WINDOW, SKIP_OCCURRENCE, CHANGE_WINDOW, SCHEDULE } from './queries';
import { SCOPES } from './types';
import type { MaintenanceWindow, Scope, Viewer } from './types';
import { Field, fmtTime, scopeLabel } from './ui';

const DAY = 86_400_000;
const SPAN_DAYS = 7;

function local(iso: Date): string {
  const d = new Date(iso);
  d.setSeconds(0, 0);
  return d.toISOString().slice(0, 16);
}
const asIso = (value: string) => new Date(`${value}:00Z`).toISOString();

/** A bar per window over the next week (now at the left edge). */
function Timeline({ windows, now }: { windows: MaintenanceWindow[]; now: number }) {
  const end = now + SPAN_DAYS * DAY;
  const pct = (t: number) => `${(Math.min(Math.max(t - now, 0), end - now) / (end - now)) * 100}%`;
  return (
    <div class="gantt" aria-hidden="true">
      <div class="days">
        {Array.from({ length: SPAN_DAYS }, (_, i) => (
          <span style={{ left: `${(i / SPAN_DAYS) * 100}%` }}>{new Date(now + i * DAY).toISOString().slice(5, 10)}</span>
        ))}
      </div>
      {windows.map((w) => {
        const from = new Date(w.from).getTime();
        const until = new Date(w.until).getTime();
        const width = `calc(${pct(until)} - ${pct(from)})`;
        return (
          <div class="lane">
            <span class="lane-label">
              {w.toolName} · {scopeLabel(w.scope, w.scopeId)}
            </span>
            <span class={`bar bar-${w.phase.toLowerCase()}`} style={{ left: pct(from), width }} />
          </div>
        );
      })}
    </div>
  );
}

export function CalendarView(props: { apiKey: string; viewer: Viewer; windows: MaintenanceWindow[]; onChanged: () => Promise<void> }) {
  const now = Date.now();
  const [form, setForm] = useState({
    toolName: '',
    scope: 'GLOBAL' as Scope,
    scopeId: '',
    from: local(new Date(now + 3_600_000)),
    until: local(new Date(now + 3 * 3_600_000)),
    reason: '',
  });
  const [edits, setEdits] = useState<Record<string, { from: string; until: string; reason: string }>>({});
  const windows = props.windows.filter((w) => !w.cancelledAt).sort((a, b) => a.from.localeCompare(b.from));
  const canWrite = props.viewer.canWrite;

  const mutate = async (query: string, vars: Record<string, unknown>, verb: string) => {
    const data = await gql<Record<string, MaintenanceWindow>>(props.apiKey, query, vars);
    const w = Object.values(data)[0];
    await props.onChanged();
    return `${verb}: ${w.toolName} at ${scopeLabel(w.scope, w.scopeId)}, ${fmtTime(w.from)} – ${fmtTime(w.until)}, now ${w.phase} (window ${w.id}).`;
  };

  return (
    <section aria-labelledby="calendar-title">
      <h2 id="calendar-title">Maintenance calendar</h2>
      <p>Windows in force and ahead; while one is in force its tool reads DOWN for the scope, expected back at its end. Times in UTC.</p>
      <Timeline windows={windows} now={now} />
      <table data-testid="windows">
        <caption class="sr-only">Maintenance windows, earliest first</caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Scope</th>
            <th scope="col">Phase</th>
            <th scope="col">From</th>
            <th scope="col">Until</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
            {canWrite ? <th scope="col">Change or cancel</th> : null}
          </tr>
        </thead>
        <tbody>
          {windows.length === 0 ? (
            <tr>
              <td colSpan={canWrite ? 8 : 7}>No window in force or ahead.</td>
            </tr>
          ) : null}
          {windows.map((w) => {
            const edit = edits[w.id] ?? { from: local(new Date(w.from)), until: local(new Date(w.until)), reason: w.reason };
            const setEdit = (part: Partial<typeof edit>) => setEdits({ ...edits, [w.id]: { ...edit, ...part } });
            return (
              <tr data-window={w.id}>
                <td>
                  {w.toolName}
                  {w.recurrence ? (
                    <div class="muted" data-testid="series-rule">
                      {ruleInWords(w)}
                    </div>
                  ) : null}
                </td>
                <td>{scopeLabel(w.scope, w.scopeId)}</td>
                <td>{w.phase}</td>
                <td>{fmtTime(w.from)}</td>
                <td>{fmtTime(w.until)}</td>
                <td>{w.reason}</td>
                <td>{w.by}</td>
                {canWrite && w.recurrence && w.current ? (
                  <td>
                    <Action
                      label="Skip this occurrence"
                      testid="skip-occurrence"
                      title="Skip one occurrence"
                      what={`Only the occurrence of ${fmtTime(w.from)} – ${fmtTime(w.until)} is skipped; the series (${ruleInWords(w)}) goes on.`}
                      run={() => mutate(SKIP_OCCURRENCE, { id: w.id, occurrence: w.current!.occurrence }, 'Skipped one occurrence')}
                    />
                    <Action
                      label="Cancel the whole series"
                      testid="cancel-series"
                      title="Cancel the whole series"
                      what={`Every occurrence of ${w.toolName} at ${scopeLabel(w.scope, w.scopeId)} (${ruleInWords(w)}) is cancelled${w.phase === 'IN_FORCE' ? ', and the one in force ends now' : ''}.`}
                      run={() => mutate(CANCEL_WINDOW, { id: w.id }, 'Cancelled the series')}
                    />
                  </td>
                ) : canWrite ? (
                  <td>
                    <details>
                      <summary>Change</summary>
                      <Field label="From (UTC)">
                        <input
                          type="datetime-local"
                          name="changeFrom"
                          value={edit.from}
                          disabled={w.phase !== 'UPCOMING'}
                          onInput={(e) => setEdit({ from: e.currentTarget.value })}
                        />
                      </Field>
                      <Field label="Until (UTC)">
                        <input
                          type="datetime-local"
                          name="changeUntil"
                          value={edit.until}
                          onInput={(e) => setEdit({ until: e.currentTarget.value })}
                        />
                      </Field>
                      <Field label="Reason">
                        <input name="changeReason" value={edit.reason} onInput={(e) => setEdit({ reason: e.currentTarget.value })} />
                      </Field>
                      <Action
                        label="Save change"
                        testid="change-maintenance"
                        title="Change the window"
                        what={`The window of ${w.toolName} becomes ${edit.from} – ${edit.until} UTC (was ${fmtTime(w.from)} – ${fmtTime(w.until)}), reason "${edit.reason}".`}
                        run={() =>
                          mutate(
                            CHANGE_WINDOW,
                            {
                              input: {
                                id: w.id,
                                ...(w.phase === 'UPCOMING' ? { from: asIso(edit.from) } : {}),
                                until: asIso(edit.until),
                                reason: edit.reason,
                              },
                            },
                            'Changed',
                          )
                        }
                      />
                    </details>
                    <Action
                      label="Cancel window"
                      testid="cancel-maintenance"
                      title="Cancel the window"
                      what={`The window of ${w.toolName} at ${scopeLabel(w.scope, w.scopeId)} (${fmtTime(w.from)} – ${fmtTime(w.until)}) is cancelled${w.phase === 'IN_FORCE' ? ': it ends now' : ''}.`}
                      run={() => mutate(CANCEL_WINDOW, { id: w.id }, 'Cancelled')}
                    />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      <ReadOnlyNote viewer={props.viewer} />
      {canWrite ? (
        <form class="schedule" aria-labelledby="schedule-title" onSubmit={(e) => e.preventDefault()}>
          <h3 id="schedule-title">Schedule a window</h3>
          <Field label="Tool">
            <input name="scheduleTool" value={form.toolName} onInput={(e) => setForm({ ...form, toolName: e.currentTarget.value })} />
          </Field>
          <Field label="Scope">
            <select name="scheduleScope" value={form.scope} onChange={(e) => setForm({ ...form, scope: e.currentTarget.value as Scope })}>
              {SCOPES.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          </Field>
          <Field label="Scope id">
            <input
              name="scheduleScopeId"
              value={form.scopeId}
              disabled={form.scope === 'GLOBAL'}
              onInput={(e) => setForm({ ...form, scopeId: e.currentTarget.value })}
            />
          </Field>
          <Field label="From (UTC)">
            <input
              type="datetime-local"
              name="scheduleFrom"
              value={form.from}
              onInput={(e) => setForm({ ...form, from: e.currentTarget.value })}
            />
          </Field>
          <Field label="Until (UTC)">
            <input
              type="datetime-local"
              name="scheduleUntil"
              value={form.until}
              onInput={(e) => setForm({ ...form, until: e.currentTarget.value })}
            />
          </Field>
          <Field label="Reason (the LLM may read it)">
            <input name="scheduleReason" value={form.reason} onInput={(e) => setForm({ ...form, reason: e.currentTarget.value })} />
          </Field>
          <Action
            label="Schedule"
            testid="schedule"
            disabled={!form.toolName.trim() || !form.reason.trim()}
            title="Schedule maintenance"
            what={`${form.toolName} reads DOWN for ${form.scope === 'GLOBAL' ? 'everyone' : `${form.scope} ${form.scopeId}`} from ${form.from} to ${form.until} UTC, expected back at the end; reason "${form.reason}".`}
            run={() =>
              mutate(
                SCHEDULE,
                {
                  input: {
                    toolName: form.toolName.trim(),
                    scope: form.scope,
                    scopeId: form.scope === 'GLOBAL' ? null : form.scopeId.trim(),
                    from: asIso(form.from),
                    until: asIso(form.until),
                    reason: form.reason,
                  },
                },
                'Scheduled',
              )
            }
          />
        </form>
      ) : null}
    </section>
  );
}

const DAYS: Record<string, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

/** A series' rule in words, at its local times: "every Saturday 18:00–20:00 Europe/Berlin". */
export function ruleInWords(w: Pick<MaintenanceWindow, 'recurrence' | 'from' | 'until'>): string {
  if (!w.recurrence) return '';
  const { rrule, timeZone } = w.recurrence;
  const parts = Object.fromEntries(rrule.split(';').map((p) => p.split('=') as [string, string]));
  const clock = (iso: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
  const interval = Number(parts.INTERVAL ?? '1');
  const unit = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month' }[parts.FREQ as string] ?? (parts.FREQ ?? '').toLowerCase();
  let when = interval > 1 ? `every ${interval} ${unit}s` : `every ${unit}`;
  if (parts.BYDAY) {
    const days = parts.BYDAY.split(',').map((d) => DAYS[d.replace(/^[-+]?\d+/, '')] ?? d);
    when = interval > 1 ? `${when} on ${days.join(', ')}` : `every ${days.join(', ')}`;
  } else if (parts.BYMONTHDAY) when = `${when} on day ${parts.BYMONTHDAY}`;
  return `${when} ${clock(w.from)}–${clock(w.until)} ${timeZone}`;
}
