import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Entry, Scope } from './types';

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

/** "in 4 min", "3 h ago". */
export function relative(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime() - now;
  const abs = Math.abs(ms);
  if (abs < 5000) return 'just now';
  const text =
    abs < 60_000
      ? `${Math.round(abs / 1000)} s`
      : abs < 3_600_000
        ? `${Math.round(abs / 60_000)} min`
        : abs < 172_800_000
          ? `${(abs / 3_600_000).toFixed(1)} h`
          : `${Math.round(abs / 86_400_000)} d`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

export function Time({ iso, now }: { iso: string | null | undefined; now: number }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={fmtTime(iso)}>
      {fmtTime(iso)} <span class="muted">({relative(iso, now)})</span>
    </time>
  );
}

/** Who an entry of this scope concerns, in words. */
export function audience(scope: Scope, scopeId: string | null): string {
  switch (scope) {
    case 'GLOBAL':
      return 'everyone';
    case 'TENANT':
      return `tenant ${scopeId}`;
    case 'PROJECT':
      return `project ${scopeId}`;
    case 'USER':
      return `user ${scopeId}`;
    case 'SESSION':
      return `session ${scopeId}`;
  }
}

export function scopeLabel(scope: Scope, scopeId: string | null): string {
  return scopeId ? `${scope} ${scopeId}` : scope;
}

export function isRetesting(entry: Pick<Entry, 'status' | 'expectedRecoveryAt'>, now: number): boolean {
  return entry.status !== 'OK' && entry.expectedRecoveryAt !== null && new Date(entry.expectedRecoveryAt).getTime() <= now;
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

/**
 * A confirmation step: says what will change before it changes (D26). A modal <dialog>, so the
 * keyboard stays inside it and Escape cancels.
 */
export function Confirm(props: {
  title: string;
  children: ComponentChildren;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      <div class="buttons">
        <button type="button" class="primary" onClick={props.onConfirm} disabled={props.busy}>
          Confirm
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

export function Field(props: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
      {props.hint ? <small class="muted">{props.hint}</small> : null}
    </label>
  );
}

export const ROLE_TEXT =
  'Reading (every view, live updates) needs a key with the role audit-reader or admin; the actions (clear, mark available, pin, unpin, cooldown window, maintenance) need admin.';
