import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, gql, type VariablesOf } from './api';
import type { PinStatus, TypedDocumentString } from './graphql/generated';
import { Action, ReadOnlyNote, describeEvent, eventsOf } from './actions';
import { CLEAR, COOLDOWN_WINDOW, MARK_AVAILABLE, PIN, TOOL_ENTRIES, TOOL_ENTRY, UNPIN } from './queries';
import { SCOPES } from './types';
import type { Entry, EntryKey, HealthEvent, HistoryItem, MaintenanceWindow, Scope, Viewer } from './types';
import { ErrorNote, Field, StatusBadge, Time, audience, fmtTime, isRetesting, scopeLabel } from './ui';
import { ToolStatsPanel } from './stats';
import { ruleInWords } from './series-rule';
import { instantOfWall, wallOf } from './zone';

/** After a write, the event it caused: read the feed until one of this document newer than `since` arrives. */
async function resultingEvent(key: string, docId: string, before: Set<string>): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const fresh = (await eventsOf(key, docId)).filter((e) => !before.has(e.id));
    if (fresh.length) return `Done. Resulting event: ${fresh.map(describeEvent).join('; ')}`;
    await new Promise((r) => setTimeout(r, 150));
  }
  return 'Done (no event yet: the write changed nothing the feed reports).';
}

/** The form value (a UTC wall time) of `hours` from now. */
function inHours(hours: number): string {
  return wallOf(new Date(Date.now() + hours * 3_600_000), 'UTC');
}

/** The history as a strip of status segments from the first item to now (the list below says the same in words). */
function StatusStrip({ history, now }: { history: HistoryItem[]; now: number }) {
  if (history.length === 0) return null;
  const start = new Date(history[0].at).getTime();
  const span = Math.max(now - start, 1);
  return (
    <div class="strip" aria-hidden="true">
      {history.map((h, i) => {
        const from = new Date(h.at).getTime();
        const to = i + 1 < history.length ? new Date(history[i + 1].at).getTime() : now;
        return (
          <span
            class={`seg badge-${h.status.toLowerCase()}`}
            title={`${h.status} from ${fmtTime(h.at)}`}
            style={{ left: `${((from - start) / span) * 100}%`, width: `${Math.max(((to - from) / span) * 100, 0.5)}%` }}
          />
        );
      })}
      <span class="strip-start">{fmtTime(history[0].at)}</span>
      <span class="strip-end">now</span>
    </div>
  );
}

/** The key every mutation of the tool view takes (act adds it). */
type KeyVariables = { toolName: string; scope: Scope; scopeId?: string | null };

export function ToolView(props: {
  apiKey: string;
  viewer: Viewer;
  selected: EntryKey | null;
  windows: MaintenanceWindow[];
  events: HealthEvent[];
  onChanged: () => void;
}) {
  const [form, setForm] = useState<EntryKey>(props.selected ?? { toolName: '', scope: 'GLOBAL', scopeId: null });
  const [shown, setShown] = useState<EntryKey | null>(props.selected);
  const [entry, setEntry] = useState<Entry | null>(null);
  const [siblings, setSiblings] = useState<{ id: string; scope: Scope; scopeId: string | null; status: string }[]>([]);
  const [events, setEvents] = useState<HealthEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [pinForm, setPinForm] = useState<{ status: PinStatus; reason: string; until: string }>({
    status: 'OK',
    reason: '',
    until: inHours(4),
  });
  const [windowSeconds, setWindowSeconds] = useState<Record<string, string>>({});
  const now = Date.now();

  const load = useCallback(async () => {
    if (!shown) return;
    setError(null);
    try {
      const list = await gql(props.apiKey, TOOL_ENTRIES, { toolName: shown.toolName });
      setSiblings(list.toolHealths.edges.map((e) => e.node));
      try {
        const data = await gql(props.apiKey, TOOL_ENTRY, { ...shown });
        setEntry(data.toolHealth);
        setEvents((await eventsOf(props.apiKey, data.toolHealth.id)).reverse().slice(0, 20));
      } catch (e) {
        setEntry(null);
        setEvents([]);
        if (!(e instanceof ApiError && e.code === 'NOT_FOUND')) throw e;
      }
    } catch (e) {
      setError(e);
    }
  }, [props.apiKey, shown]);

  useEffect(() => {
    void load();
  }, [load]);
  // Live: an event of this document reloads it.
  const latest = props.events[0];
  useEffect(() => {
    if (latest && entry && latest.docId === entry.id) void load();
  }, [latest?.id]);

  const keyVars = shown ? { toolName: shown.toolName, scope: shown.scope, scopeId: shown.scopeId } : null;
  /** Runs one of the entry's mutations (each takes its key and answers the entry's id) and says which event it wrote. */
  const act = async <V extends KeyVariables>(
    document: TypedDocumentString<Record<string, { id: string }>, V>,
    vars: Omit<V, keyof KeyVariables>,
  ): Promise<string> => {
    const before = new Set(entry ? (await eventsOf(props.apiKey, entry.id)).map((e) => e.id) : []);
    const data = await gql(props.apiKey, document, ...([{ ...keyVars, ...vars } as V] as VariablesOf<V>));
    const docId = Object.values(data)[0].id;
    const text = await resultingEvent(props.apiKey, docId, before);
    await load();
    return text;
  };
  const windows = shown ? props.windows.filter((w) => w.toolName === shown.toolName) : [];
  const canWrite = props.viewer.canWrite;

  return (
    <section aria-labelledby="tool-title">
      <h2 id="tool-title">One tool, one document</h2>
      <form
        class="filters"
        aria-label="Which document"
        onSubmit={(e) => {
          e.preventDefault();
          setShown({ ...form, scopeId: form.scope === 'GLOBAL' ? null : form.scopeId || null });
        }}
      >
        <Field label="Tool">
          <input name="toolName" required value={form.toolName} onInput={(e) => setForm({ ...form, toolName: e.currentTarget.value })} />
        </Field>
        <Field label="Scope">
          <select name="scope" value={form.scope} onChange={(e) => setForm({ ...form, scope: e.currentTarget.value as Scope })}>
            {SCOPES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </Field>
        <Field label="Scope id">
          <input
            name="scopeId"
            value={form.scopeId ?? ''}
            disabled={form.scope === 'GLOBAL'}
            onInput={(e) => setForm({ ...form, scopeId: e.currentTarget.value })}
          />
        </Field>
        <button type="submit" class="primary">
          Show
        </button>
      </form>
      <ErrorNote error={error} />
      {!shown ? <p>Choose a tool and scope, or open a row of the Now board.</p> : null}
      {shown && siblings.length ? (
        <p>
          Stored entries of {shown.toolName}:{' '}
          {siblings.map((s) => (
            <button
              type="button"
              class="link"
              onClick={() => {
                setForm({ toolName: shown.toolName, scope: s.scope, scopeId: s.scopeId });
                setShown({ toolName: shown.toolName, scope: s.scope, scopeId: s.scopeId });
              }}
            >
              {scopeLabel(s.scope, s.scopeId)} ({s.status})
            </button>
          ))}
        </p>
      ) : null}
      {shown && !entry && !error ? (
        <p data-testid="no-entry">
          Nothing stored for {shown.toolName} at {scopeLabel(shown.scope, shown.scopeId)}: it reads OK there unless a wider entry or a
          window says otherwise.
        </p>
      ) : null}
      <ReadOnlyNote viewer={props.viewer} />
      {shown ? <ToolStatsPanel apiKey={props.apiKey} toolName={shown.toolName} /> : null}
      {entry ? (
        <div class="tool" data-testid="tool-entry">
          <h3>
            {entry.toolName} at {scopeLabel(entry.scope, entry.scopeId)}{' '}
            <StatusBadge status={isRetesting(entry, now) ? 'RETESTING' : entry.status} />
          </h3>
          <dl>
            <dt>Affects</dt>
            <dd>{audience(entry.scope, entry.scopeId)}</dd>
            <dt>Since</dt>
            <dd>
              <Time iso={entry.since} now={now} />
            </dd>
            <dt>Expected back</dt>
            <dd>
              <Time iso={entry.expectedRecoveryAt} now={now} />
            </dd>
            <dt>Code</dt>
            <dd>{entry.code ?? '—'}</dd>
            <dt>Last diagnosis</dt>
            <dd>
              {entry.lastDiagnosis
                ? `${entry.lastDiagnosis.classification ?? entry.lastDiagnosis.code ?? ''} by ${entry.lastDiagnosis.by} at ${fmtTime(entry.lastDiagnosis.at)}${entry.lastDiagnosis.note ? `: ${entry.lastDiagnosis.note}` : ''}`
                : '—'}
            </dd>
            <dt>Pin</dt>
            <dd data-testid="pin">
              {entry.pin ? `${entry.pin.status} until ${fmtTime(entry.pin.until)} by ${entry.pin.by}: ${entry.pin.reason}` : 'none'}
            </dd>
          </dl>

          <h4>Timeline</h4>
          <StatusStrip history={entry.history ?? []} now={now} />
          <ol class="timeline" aria-label="History, oldest first">
            {(entry.history ?? []).map((h) => (
              <li>
                <StatusBadge status={h.status} /> {fmtTime(h.at)} by {h.by}
                {h.code ? ` · ${h.code}` : ''}
                {h.classification ? ` · ${h.classification}` : ''}
                {h.recoveryAt ? ` · back ${fmtTime(h.recoveryAt)}` : ''}
                {h.note ? ` · ${h.note}` : ''}
              </li>
            ))}
          </ol>

          <h4>Cooldowns</h4>
          {entry.cooldowns.length === 0 ? <p>none</p> : null}
          {entry.cooldowns.length ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">Error signature</th>
                  <th scope="col">User</th>
                  <th scope="col">Class</th>
                  <th scope="col">Hits</th>
                  <th scope="col">Window (ladder step)</th>
                  <th scope="col">Ends</th>
                  <th scope="col">Change window</th>
                </tr>
              </thead>
              <tbody>
                {entry.cooldowns.map((c) => {
                  const id = `${c.errorSignature}|${c.userId ?? ''}`;
                  const seconds = windowSeconds[id] ?? String(Math.round(c.windowMs / 1000));
                  return (
                    <tr data-cooldown={c.errorSignature}>
                      <td>{c.errorSignature}</td>
                      <td>{c.userId ?? 'everyone at the scope'}</td>
                      <td>{c.lastClassification}</td>
                      <td>{c.hits}</td>
                      <td>{Math.round(c.windowMs / 1000)} s</td>
                      <td>
                        <Time iso={c.nextSpawnAllowedAt} now={now} />
                      </td>
                      <td>
                        {canWrite ? (
                          <>
                            <label class="inline">
                              <span class="sr-only">New window in seconds for {c.errorSignature}</span>
                              <input
                                type="number"
                                min={1}
                                name="windowSeconds"
                                value={seconds}
                                onInput={(e) => setWindowSeconds({ ...windowSeconds, [id]: e.currentTarget.value })}
                              />{' '}
                              s
                            </label>
                            <Action
                              label="Change window"
                              testid="change-window"
                              title="Change the cooldown window"
                              what={`The cooldown of ${c.errorSignature}${c.userId ? ` for user ${c.userId}` : ''} gets a window of ${seconds} s instead of ${Math.round(c.windowMs / 1000)} s: it then ends at its start plus the new window.`}
                              run={() =>
                                act(COOLDOWN_WINDOW, {
                                  errorSignature: c.errorSignature,
                                  userId: c.userId,
                                  windowMs: Number(seconds) * 1000,
                                })
                              }
                            />
                          </>
                        ) : (
                          'admin only'
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : null}

          {canWrite ? (
            <div class="actions" aria-label="Actions">
              <h4>Actions</h4>
              <Action
                label="Mark available"
                testid="mark-available"
                title="Mark available"
                what={`${entry.toolName} at ${scopeLabel(entry.scope, entry.scopeId)} becomes OK (now ${entry.status}). Its cooldowns stay.`}
                run={() => act(MARK_AVAILABLE, { note: 'from the operator console' })}
              />
              <Action
                label="Clear"
                testid="clear"
                title="Clear"
                what={`${entry.toolName} at ${scopeLabel(entry.scope, entry.scopeId)} becomes OK (now ${entry.status}) and its ${entry.cooldowns.length} cooldown(s) end.`}
                run={() => act(CLEAR, { note: 'from the operator console' })}
              />
              <fieldset class="pin">
                <legend>Pin</legend>
                <Field label="Pin status">
                  <select
                    name="pinStatus"
                    value={pinForm.status}
                    onChange={(e) => setPinForm({ ...pinForm, status: e.currentTarget.value as PinStatus })}
                  >
                    <option value="OK">OK</option>
                    <option value="DOWN">DOWN</option>
                  </select>
                </Field>
                <Field label="Reason">
                  <input
                    name="pinReason"
                    value={pinForm.reason}
                    onInput={(e) => setPinForm({ ...pinForm, reason: e.currentTarget.value })}
                  />
                </Field>
                <Field label="Until (UTC)">
                  <input
                    type="datetime-local"
                    name="pinUntil"
                    value={pinForm.until}
                    onInput={(e) => setPinForm({ ...pinForm, until: e.currentTarget.value })}
                  />
                </Field>
                <Action
                  label="Pin"
                  testid="pin-action"
                  disabled={!pinForm.reason.trim()}
                  title="Pin this entry"
                  what={`${entry.toolName} at ${scopeLabel(entry.scope, entry.scopeId)} reads ${pinForm.status} until ${pinForm.until} UTC, whatever else is reported; reason: "${pinForm.reason}".`}
                  run={() =>
                    act(PIN, { status: pinForm.status, reason: pinForm.reason, until: instantOfWall(pinForm.until, 'UTC').toISOString() })
                  }
                />
                <Action
                  label="Unpin"
                  testid="unpin"
                  disabled={!entry.pin}
                  title="Lift the pin"
                  what={
                    entry.pin
                      ? `The pin (${entry.pin.status} until ${fmtTime(entry.pin.until)}) is lifted; the entry reads ${entry.status} again.`
                      : 'No pin to lift.'
                  }
                  run={() => act(UNPIN, {})}
                />
              </fieldset>
            </div>
          ) : null}

          <h4>Maintenance windows of {entry.toolName}</h4>
          {windows.length === 0 ? <p>none in force or ahead</p> : null}
          <ul>
            {windows.map((w) => (
              <li>
                {scopeLabel(w.scope, w.scopeId)} · {w.phase} · {fmtTime((w.current ?? w).from)} – {fmtTime((w.current ?? w).until)} ·{' '}
                {(w.current ?? w).reason}
                {w.recurrence ? ` · ${ruleInWords(w)}` : ''}
              </li>
            ))}
          </ul>

          <h4>Last events</h4>
          <ol class="events" data-testid="events">
            {events.map((e) => (
              <li>{describeEvent(e)}</li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
