import { useState } from 'preact/hooks';
import { gql, type VariablesOf } from './api';
import type { TypedDocumentString } from './graphql/generated';
import { Action, ReadOnlyNote } from './actions';
import { CANCEL_WINDOW, CHANGE_OCCURRENCE, CHANGE_WINDOW, SKIP_OCCURRENCE } from './queries';
import { ScheduleForm } from './schedule-form';
import { ruleInWords } from './series-rule';
import type { MaintenanceWindow, Occurrence, Viewer } from './types';
import { Field, fmtTime, scopeLabel } from './ui';
import { instantOfWall, wallOf } from './zone';

const DAY = 86_400_000;
const SPAN_DAYS = 7;

const utcWall = (iso: string) => wallOf(iso, 'UTC');
const asIso = (value: string) => instantOfWall(value, 'UTC').toISOString();

/** The bars of a window: each coming occurrence of a series, or the one-off window itself. */
function barsOf(w: MaintenanceWindow): { from: string; until: string }[] {
  return w.recurrence ? w.occurrencesAhead : [w];
}

/** A lane per window over the next week (now at the left edge), a bar per occurrence. */
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
      {windows.map((w) => (
        <div class="lane" data-lane={w.id}>
          <span class="lane-label">
            {w.toolName} · {scopeLabel(w.scope, w.scopeId)}
          </span>
          {barsOf(w).map((o) => {
            const from = new Date(o.from).getTime();
            const until = new Date(o.until).getTime();
            const phase = from <= now ? 'in_force' : 'upcoming';
            return <span class={`bar bar-${phase}`} style={{ left: pct(from), width: `calc(${pct(until)} - ${pct(from)})` }} />;
          })}
        </div>
      ))}
    </div>
  );
}

/** Runs one of the calendar's mutations (each answers the window it changed) and says what it did. */
export type Mutate = <V>(document: TypedDocumentString<Record<string, MaintenanceWindow>, V>, vars: V, verb: string) => Promise<string>;

/** What a series row shows: the occurrence in force or next (never a past one), else the series' own times. */
function shownTimes(w: MaintenanceWindow): { from: string; until: string; reason: string } {
  return w.current ?? w;
}

export function CalendarView(props: { apiKey: string; viewer: Viewer; windows: MaintenanceWindow[]; onChanged: () => Promise<void> }) {
  const now = Date.now();
  const windows = props.windows.filter((w) => !w.cancelledAt).sort((a, b) => shownTimes(a).from.localeCompare(shownTimes(b).from));
  const canWrite = props.viewer.canWrite;

  const mutate: Mutate = async (document, vars, verb) => {
    const data = await gql(props.apiKey, document, ...([vars] as VariablesOf<typeof vars>));
    const w = Object.values(data)[0];
    await props.onChanged();
    const t = shownTimes(w);
    return `${verb}: ${w.toolName} at ${scopeLabel(w.scope, w.scopeId)}, ${fmtTime(t.from)} – ${fmtTime(t.until)}, now ${w.phase} (window ${w.id}).`;
  };

  return (
    <section aria-labelledby="calendar-title">
      <h2 id="calendar-title">Maintenance calendar</h2>
      <p>
        Windows in force and ahead; while one is in force its tool reads DOWN for the scope, expected back at its end. Times in UTC; a
        series' rule in its own zone.
      </p>
      <Timeline windows={windows} now={now} />
      <table class="stack" data-testid="windows">
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
            const t = shownTimes(w);
            return (
              <tr data-window={w.id}>
                <td data-label="Tool">
                  {w.toolName}
                  {w.recurrence ? (
                    <div class="muted" data-testid="series-rule">
                      {ruleInWords(w)}
                    </div>
                  ) : null}
                </td>
                <td data-label="Scope">{scopeLabel(w.scope, w.scopeId)}</td>
                <td data-label="Phase">{w.phase}</td>
                <td data-label={w.recurrence ? 'This occurrence from' : 'From'}>{fmtTime(t.from)}</td>
                <td data-label="Until">{fmtTime(t.until)}</td>
                <td data-label="Reason">{t.reason}</td>
                <td data-label="By">{w.by}</td>
                {canWrite ? (
                  <td>
                    {w.recurrence ? <SeriesActions window={w} now={now} mutate={mutate} /> : <WindowActions window={w} mutate={mutate} />}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      <ReadOnlyNote viewer={props.viewer} />
      {canWrite ? <ScheduleForm mutate={mutate} /> : null}
    </section>
  );
}

/** A one-off window: change its times or reason, or cancel it. */
function WindowActions({ window: w, mutate }: { window: MaintenanceWindow; mutate: Mutate }) {
  const [edit, setEdit] = useState({ from: utcWall(w.from), until: utcWall(w.until), reason: w.reason });
  const set = (part: Partial<typeof edit>) => setEdit({ ...edit, ...part });
  return (
    <>
      <details>
        <summary>Change</summary>
        <Field label="From (UTC)">
          <input
            type="datetime-local"
            name="changeFrom"
            value={edit.from}
            disabled={w.phase !== 'UPCOMING'}
            onInput={(e) => set({ from: e.currentTarget.value })}
          />
        </Field>
        <Field label="Until (UTC)">
          <input type="datetime-local" name="changeUntil" value={edit.until} onInput={(e) => set({ until: e.currentTarget.value })} />
        </Field>
        <Field label="Reason">
          <input name="changeReason" value={edit.reason} onInput={(e) => set({ reason: e.currentTarget.value })} />
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
    </>
  );
}

/**
 * A series: the row stands for its occurrence in force or next. Cancelling offers the choice a
 * calendar app gives — this occurrence (skipped, the series goes on) or the whole series — and
 * one occurrence may be moved or re-worded alone, in the series' own zone.
 */
function SeriesActions({ window: w, now, mutate }: { window: MaintenanceWindow; now: number; mutate: Mutate }) {
  const current = w.current;
  const rule = ruleInWords(w);
  const started = current !== null && new Date(current.from).getTime() <= now;
  return (
    <>
      {current ? <ChangeOccurrence key={current.occurrence} window={w} occurrence={current} started={started} mutate={mutate} /> : null}
      {current && !started ? (
        <Action
          label="Cancel this occurrence"
          testid="skip-occurrence"
          title="Cancel one occurrence"
          what={`Only the occurrence of ${fmtTime(current.from)} – ${fmtTime(current.until)} is skipped; the series (${rule}) goes on.`}
          run={() => mutate(SKIP_OCCURRENCE, { id: w.id, occurrence: current.occurrence }, 'Skipped one occurrence')}
        />
      ) : null}
      <Action
        label="Cancel the whole series"
        testid="cancel-series"
        title="Cancel the whole series"
        what={`Every occurrence of ${w.toolName} at ${scopeLabel(w.scope, w.scopeId)} (${rule}) is cancelled${w.phase === 'IN_FORCE' ? ', and the one in force ends now' : ''}.`}
        run={() => mutate(CANCEL_WINDOW, { id: w.id }, 'Cancelled the series')}
      />
    </>
  );
}

function ChangeOccurrence(props: { window: MaintenanceWindow; occurrence: Occurrence; started: boolean; mutate: Mutate }) {
  const { window: w, occurrence: o } = props;
  const zone = w.recurrence!.timeZone;
  const [edit, setEdit] = useState({ from: wallOf(o.from, zone), until: wallOf(o.until, zone), reason: o.reason });
  const set = (part: Partial<typeof edit>) => setEdit({ ...edit, ...part });
  return (
    <details>
      <summary>Change this occurrence</summary>
      <Field label={`From (${zone})`}>
        <input
          type="datetime-local"
          name="occurrenceFrom"
          value={edit.from}
          disabled={props.started}
          onInput={(e) => set({ from: e.currentTarget.value })}
        />
      </Field>
      <Field label={`Until (${zone})`}>
        <input type="datetime-local" name="occurrenceUntil" value={edit.until} onInput={(e) => set({ until: e.currentTarget.value })} />
      </Field>
      <Field label="Reason">
        <input name="occurrenceReason" value={edit.reason} onInput={(e) => set({ reason: e.currentTarget.value })} />
      </Field>
      <Action
        label="Save this occurrence"
        testid="change-occurrence"
        title="Change one occurrence"
        what={`Only the occurrence of ${fmtTime(o.from)} becomes ${edit.from.replace('T', ' ')} – ${edit.until.replace('T', ' ')} ${zone}, reason "${edit.reason}"; the series (${ruleInWords(w)}) stays as it is.`}
        run={() =>
          props.mutate(
            CHANGE_OCCURRENCE,
            {
              input: {
                id: w.id,
                occurrence: o.occurrence,
                ...(props.started ? {} : { from: instantOfWall(edit.from, zone).toISOString() }),
                until: instantOfWall(edit.until, zone).toISOString(),
                reason: edit.reason,
              },
            },
            'Changed one occurrence',
          )
        }
      />
    </details>
  );
}
