import { DomainError } from './domain-error';
import { findCooldown, isCooldownActive } from './cooldown-policy';
import { ToolHealthDocument } from './tool-health-document';

/** Bounds of an admin's window, the same as an explicit cooldown duration (setCooldown's durationMs). */
export const MIN_WINDOW_MS = 1_000;
export const MAX_WINDOW_MS = 30 * 24 * 3600_000;

export interface WindowChange {
  errorSignature: string;
  userId: string | null;
  windowMs: number;
  now: Date;
}

/**
 * An admin changes one cooldown's window without restarting it (P85). The stored window is the
 * base of the next ladder step (§6: stored values are authoritative), so the change carries into
 * every later repetition. A running cooldown keeps its start (its end minus its current window)
 * and now ends at start + the new window, or now if that has already passed; an expired one stays
 * expired. Hits, classification and last trigger are kept. Unlike setCooldown with a duration,
 * nothing restarts at now. NOT_FOUND when there is no such cooldown. Never mutates `doc`.
 */
export function changeCooldownWindow(doc: ToolHealthDocument, change: WindowChange): ToolHealthDocument {
  if (!Number.isInteger(change.windowMs) || change.windowMs < MIN_WINDOW_MS || change.windowMs > MAX_WINDOW_MS) {
    throw DomainError.invalid('windowMs', `must be a whole number of milliseconds from ${MIN_WINDOW_MS} to ${MAX_WINDOW_MS}`);
  }
  const existing = findCooldown(doc, change.errorSignature, change.userId);
  if (!existing) {
    throw DomainError.notFound(`no cooldown ${change.errorSignature} for user ${change.userId ?? '(scope-wide)'} on that entry`);
  }
  let nextSpawnAllowedAt = existing.nextSpawnAllowedAt;
  if (isCooldownActive(existing, change.now)) {
    const start = existing.nextSpawnAllowedAt.getTime() - existing.windowMs;
    nextSpawnAllowedAt = new Date(Math.max(start + change.windowMs, change.now.getTime()));
  }
  const updated = { ...existing, windowMs: change.windowMs, nextSpawnAllowedAt };
  return { ...doc, cooldowns: doc.cooldowns.map((e) => (e === existing ? updated : e)), updatedAt: change.now };
}
