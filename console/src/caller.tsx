import { useState } from 'preact/hooks';
import { gql } from './api';
import type { ConsoleCallerQuery } from './graphql/generated';
import { CALLER } from './queries';
import { ErrorNote, Field, StatusBadge, fmtTime, scopeLabel } from './ui';

/** What the caller's view shows: one query's answer, typed by what it asks for. */
type CallerAnswer = ConsoleCallerQuery;

const FIELDS = ['sessionId', 'userId', 'projectId', 'tenantId'] as const;

export function CallerView({ apiKey }: { apiKey: string }) {
  const [form, setForm] = useState({
    toolName: '',
    description: '',
    sessionId: '',
    userId: '',
    projectId: '',
    tenantId: '',
    timeZone: 'UTC',
    errorSignature: 'http-500',
  });
  const [answer, setAnswer] = useState<CallerAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async () => {
    setError(null);
    try {
      const context = Object.fromEntries(FIELDS.filter((f) => form[f].trim()).map((f) => [f, form[f].trim()]));
      setAnswer(
        await gql(apiKey, CALLER, {
          toolName: form.toolName.trim(),
          description: form.description,
          context,
          timeZone: form.timeZone.trim() || 'UTC',
          errorSignature: form.errorSignature.trim() || 'http-500',
        }),
      );
    } catch (e) {
      setAnswer(null);
      setError(e);
    }
  };
  const a = answer?.annotatedTool;
  const e = answer?.effectiveHealth;
  const f = answer?.failureCheck;

  return (
    <section aria-labelledby="caller-title">
      <h2 id="caller-title">What does this caller see</h2>
      <p>The line the caller's LLM reads for one tool this turn (as POST /v1/manifest/annotate answers it), and why.</p>
      <form
        class="filters"
        aria-label="Caller context"
        onSubmit={(ev) => {
          ev.preventDefault();
          void run();
        }}
      >
        <Field label="Tool">
          <input name="toolName" required value={form.toolName} onInput={(ev) => setForm({ ...form, toolName: ev.currentTarget.value })} />
        </Field>
        <Field label="Description">
          <input name="description" value={form.description} onInput={(ev) => setForm({ ...form, description: ev.currentTarget.value })} />
        </Field>
        {FIELDS.map((f) => (
          <Field label={f.replace('Id', ' id').replace(/^./, (c) => c.toUpperCase())}>
            <input name={f} value={form[f]} onInput={(ev) => setForm({ ...form, [f]: ev.currentTarget.value })} />
          </Field>
        ))}
        <Field label="Time zone">
          <input name="timeZone" value={form.timeZone} onInput={(ev) => setForm({ ...form, timeZone: ev.currentTarget.value })} />
        </Field>
        <Field label="If it failed with">
          <input
            name="errorSignature"
            value={form.errorSignature}
            onInput={(ev) => setForm({ ...form, errorSignature: ev.currentTarget.value })}
          />
        </Field>
        <button type="submit" class="primary">
          Evaluate
        </button>
      </form>
      <ErrorNote error={error} />
      {a && e ? (
        <div class="caller" data-testid="caller-result">
          <h3>The LLM reads</h3>
          <p class="line">
            <code data-testid="caller-line">
              {a.name}: {a.description}
            </code>
          </p>
          <dl>
            <dt>Status</dt>
            <dd data-testid="caller-status">
              <StatusBadge status={a.retesting ? 'RETESTING' : a.status} /> {a.doNotCall ? '(do not call)' : ''}
            </dd>
            <dt>Suffix</dt>
            <dd data-testid="caller-suffix">{a.suffix ?? 'none'}</dd>
            <dt>Hint</dt>
            <dd data-testid="caller-hint">{a.hint ?? 'none'}</dd>
            <dt>Decided by</dt>
            <dd data-testid="caller-reason">
              {a.reason.reason}
              {a.reason.matched
                ? ` — ${scopeLabel(a.reason.matched.scope, a.reason.matched.scopeId)}${a.reason.matched.pinned ? ' (pinned)' : ''}, since ${fmtTime(a.reason.matched.since)}${a.reason.matched.until ? `, until ${fmtTime(a.reason.matched.until)}` : ''}${a.reason.matched.by ? `, by ${a.reason.matched.by}` : ''}`
                : ''}
            </dd>
            <dt>Back at</dt>
            <dd>{e.backAt ? fmtTime(e.backAt) : e.blocked ? 'not known' : '—'}</dd>
            <dt>Maintenance</dt>
            <dd>
              {e.maintenance?.inForce
                ? `in force until ${fmtTime(e.maintenance.inForce.until)}: ${e.maintenance.inForce.reason}`
                : 'none in force'}
              {e.maintenance?.upcoming ? `; next from ${fmtTime(e.maintenance.upcoming.from)}` : ''}
            </dd>
          </dl>
          <h4>Trace</h4>
          <ol data-testid="caller-why">
            {a.reason.why.map((w) => (
              <li>{w}</li>
            ))}
          </ol>
          <h4>Entries in the cascade (narrow to wide)</h4>
          <ul>
            {e.considered.length === 0 ? <li>none stored</li> : null}
            {e.considered.map((c) => (
              <li>
                {scopeLabel(c.scope, c.scopeId)}: {c.status}
                {c.retesting ? ' (retesting)' : ''}
                {c.pinned ? ' (pinned)' : ''}
              </li>
            ))}
          </ul>
          {f ? (
            <>
              <h4>If this call failed now with {form.errorSignature || 'http-500'}</h4>
              <p data-testid="caller-failure">
                {f.spawn ? 'A diagnosis would be spawned' : 'No diagnosis would be spawned'} ({f.reason})
                {f.retryAt ? `; the next one could be spawned at ${fmtTime(f.retryAt)}` : ''}.
              </p>
              <ol data-testid="caller-failure-why">
                {f.why.map((w) => (
                  <li>{w}</li>
                ))}
              </ol>
            </>
          ) : null}
          <h4>Shadowed</h4>
          <ul>
            {a.reason.shadowed.length === 0 ? <li>nothing</li> : null}
            {a.reason.shadowed.map((s) => (
              <li>
                {scopeLabel(s.scope, s.scopeId)}: {s.status}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
