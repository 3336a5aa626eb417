import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { gql } from './api';
import { LAST_EVENTS } from './queries';
import type { HealthEvent, Viewer } from './types';
import { Confirm, ErrorNote, fmtTime } from './ui';

/** The newest events of one document (the outbox reaches the feed a moment after the write). */
export async function eventsOf(key: string, docId: string): Promise<HealthEvent[]> {
  // This entry's own events, however many other entries changed since (not a filter of the newest 200).
  const data = await gql(key, LAST_EVENTS, { last: 50, docId });
  return data.healthEvents.edges.map((e) => e.node);
}

export function describeEvent(e: HealthEvent): string {
  const p = e.payload;
  // The status callers get after the event, with the stored one beside it under a pin.
  const status = e.effectiveStatus && e.effectiveStatus !== e.status ? `${e.effectiveStatus} (stored ${e.status})` : e.status;
  const bits = [`${e.type} → ${status}`, fmtTime(e.at)];
  if (p.__typename === 'PinPayload') bits.push(`pinned ${String(p.pinnedStatus)} until ${fmtTime(String(p.until))}: ${String(p.reason)}`);
  if (p.__typename === 'CooldownPayload') bits.push(`${String(p.errorSignature)} until ${fmtTime(String(p.nextSpawnAllowedAt))}`);
  if (p.__typename === 'StatusChangedPayload' && p.previousStatus) bits.push(`was ${String(p.previousStatus)}`);
  if (p.__typename === 'MaintenancePayload') bits.push(`${fmtTime(String(p.from))} – ${fmtTime(String(p.until))}: ${String(p.reason)}`);
  return bits.join(' · ');
}

export function ReadOnlyNote({ viewer }: { viewer: Viewer }) {
  if (viewer.canWrite) return null;
  return (
    <p class="note" data-testid="read-only">
      Read-only: your key ({viewer.roles.join(', ')}) may read everything here; the actions need a key with the admin role.
    </p>
  );
}

/**
 * One admin action: a button that opens a confirmation saying what will change, runs the
 * mutation, then shows what came of it (`result`, e.g. the resulting event).
 */
export function Action(props: {
  label: string;
  title: string;
  what: ComponentChildren;
  run: () => Promise<string>;
  disabled?: boolean;
  testid?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<string | null>(null);
  return (
    <div class="action" data-testid={props.testid}>
      <button type="button" onClick={() => setOpen(true)} disabled={props.disabled}>
        {props.label}
      </button>
      {open ? (
        <Confirm
          title={props.title}
          busy={busy}
          onCancel={() => setOpen(false)}
          onConfirm={() => {
            setBusy(true);
            setError(null);
            props
              .run()
              .then((text) => setResult(text), setError)
              .finally(() => {
                setBusy(false);
                setOpen(false);
              });
          }}
        >
          {props.what}
        </Confirm>
      ) : null}
      <ErrorNote error={error} />
      {result ? (
        <p class="result" role="status">
          {result}
        </p>
      ) : null}
    </div>
  );
}
