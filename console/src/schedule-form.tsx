import { useState } from 'preact/hooks';
import { Action } from './actions';
import type { Mutate } from './calendar';
import { SCHEDULE } from './queries';
import { WEEKDAYS, buildRule, dayName, firstOccurrenceWall, ruleInWords, weekdayOf } from './series-rule';
import type { Repeats, Weekday } from './series-rule';
import { SCOPES } from './types';
import type { Scope } from './types';
import { Field } from './ui';
import { instantOfWall, isZone, wallOf } from './zone';

/** A new zone keeps the typed instants (re-expressed as its wall times) once both zones are known. */
function rezoned<F extends { timeZone: string; from: string; until: string }>(form: F, timeZone: string): Partial<F> {
  if (!isZone(form.timeZone) || !isZone(timeZone) || !form.from || !form.until) return { timeZone } as Partial<F>;
  const move = (wall: string) => wallOf(instantOfWall(wall, form.timeZone), timeZone);
  return { timeZone, from: move(form.from), until: move(form.until) } as Partial<F>;
}

const REPEATS: { value: Repeats; label: string }[] = [
  { value: 'NEVER', label: 'does not repeat' },
  { value: 'DAILY', label: 'daily' },
  { value: 'WEEKLY', label: 'weekly, on days' },
  { value: 'MONTHLY', label: 'monthly, on the same day' },
];

/**
 * Schedules a one-off window or a series. Times are typed as wall times in the chosen zone (UTC
 * by default): a series keeps its local hours across daylight-saving changes, so "every Saturday
 * 18:00 Europe/Berlin" is typed as such, not as a UTC instant that drifts by an hour twice a year.
 */
export function ScheduleForm(props: { mutate: Mutate }) {
  const now = Date.now();
  const [form, setForm] = useState({
    toolName: '',
    scope: 'GLOBAL' as Scope,
    scopeId: '',
    timeZone: 'UTC',
    from: wallOf(new Date(now + 3_600_000), 'UTC'),
    until: wallOf(new Date(now + 3 * 3_600_000), 'UTC'),
    reason: '',
    repeats: 'NEVER' as Repeats,
    interval: 1,
    days: [] as Weekday[],
  });
  const set = (part: Partial<typeof form>) => setForm({ ...form, ...part });
  const zoneKnown = isZone(form.timeZone);
  const first = form.from && form.until ? firstOccurrenceWall(form, form.from, form.until) : null;
  const rrule = first && buildRule({ repeats: form.repeats, interval: form.interval, days: form.days, firstDate: first.from.slice(0, 10) });
  const times =
    zoneKnown && first ? { from: instantOfWall(first.from, form.timeZone), until: instantOfWall(first.until, form.timeZone) } : null;
  const firstText = first ? `${dayName(weekdayOf(first.from.slice(0, 10)))} ${first.from.replace('T', ' ')}` : '';
  const rule =
    rrule && times
      ? ruleInWords({ recurrence: { rrule, timeZone: form.timeZone }, from: times.from.toISOString(), until: times.until.toISOString() })
      : '';
  const who = form.scope === 'GLOBAL' ? 'everyone' : `${form.scope} ${form.scopeId}`;
  const zone = `(${form.timeZone || 'zone'})`;
  const toggleDay = (day: Weekday) => set({ days: form.days.includes(day) ? form.days.filter((d) => d !== day) : [...form.days, day] });

  return (
    <form class="schedule" aria-labelledby="schedule-title" onSubmit={(e) => e.preventDefault()}>
      <h3 id="schedule-title">Schedule a window</h3>
      <Field label="Tool">
        <input name="scheduleTool" value={form.toolName} onInput={(e) => set({ toolName: e.currentTarget.value })} />
      </Field>
      <Field label="Scope">
        <select name="scheduleScope" value={form.scope} onChange={(e) => set({ scope: e.currentTarget.value as Scope })}>
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
          onInput={(e) => set({ scopeId: e.currentTarget.value })}
        />
      </Field>
      <Field label="Time zone (IANA, e.g. Europe/Berlin)">
        <input
          name="scheduleZone"
          value={form.timeZone}
          aria-invalid={!zoneKnown}
          onInput={(e) => set(rezoned(form, e.currentTarget.value.trim()))}
        />
      </Field>
      <Field label={`From ${zone}`}>
        <input type="datetime-local" name="scheduleFrom" value={form.from} onInput={(e) => set({ from: e.currentTarget.value })} />
      </Field>
      <Field label={`Until ${zone}`}>
        <input type="datetime-local" name="scheduleUntil" value={form.until} onInput={(e) => set({ until: e.currentTarget.value })} />
      </Field>
      <Field label="Repeats">
        <select name="scheduleRepeats" value={form.repeats} onChange={(e) => set({ repeats: e.currentTarget.value as Repeats })}>
          {REPEATS.map((r) => (
            <option value={r.value}>{r.label}</option>
          ))}
        </select>
      </Field>
      {form.repeats !== 'NEVER' ? (
        <Field label={`Every how many ${{ DAILY: 'days', WEEKLY: 'weeks', MONTHLY: 'months' }[form.repeats]}`}>
          <input
            type="number"
            name="scheduleInterval"
            min={1}
            max={99}
            value={form.interval}
            onInput={(e) => set({ interval: Math.max(1, Math.min(99, Math.trunc(Number(e.currentTarget.value)) || 1)) })}
          />
        </Field>
      ) : null}
      {form.repeats === 'WEEKLY' ? (
        <fieldset class="weekdays">
          <legend>On (the first day's weekday when none is ticked)</legend>
          {WEEKDAYS.map((d) => (
            <label>
              <input type="checkbox" name={`scheduleDay${d}`} checked={form.days.includes(d)} onChange={() => toggleDay(d)} /> {dayName(d)}
            </label>
          ))}
        </fieldset>
      ) : null}
      <Field label="Reason (the LLM may read it)">
        <input name="scheduleReason" value={form.reason} onInput={(e) => set({ reason: e.currentTarget.value })} />
      </Field>
      {!zoneKnown ? <p class="error">Unknown time zone "{form.timeZone}": use an IANA name such as Europe/Berlin or UTC.</p> : null}
      {rule ? (
        <p data-testid="schedule-rule">
          Repeats <strong>{rule}</strong>, the first on {firstText}.
        </p>
      ) : null}
      <Action
        label="Schedule"
        testid="schedule"
        disabled={!form.toolName.trim() || !form.reason.trim() || !times}
        title="Schedule maintenance"
        what={
          rule
            ? `${form.toolName} reads DOWN for ${who} ${rule}, the first on ${firstText}, expected back at each one's end; reason "${form.reason}".`
            : `${form.toolName} reads DOWN for ${who} from ${form.from} to ${form.until} ${form.timeZone}, expected back at the end; reason "${form.reason}".`
        }
        run={() =>
          props.mutate(
            SCHEDULE,
            {
              input: {
                toolName: form.toolName.trim(),
                scope: form.scope,
                scopeId: form.scope === 'GLOBAL' ? null : form.scopeId.trim(),
                from: times!.from.toISOString(),
                until: times!.until.toISOString(),
                reason: form.reason,
                ...(rrule ? { rrule, timeZone: form.timeZone } : {}),
              },
            },
            'Scheduled',
          )
        }
      />
    </form>
  );
}
