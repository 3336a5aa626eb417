import { isPinned } from './health-entry';
import { ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

/**
 * D9 sweep: deletes entries expired longer than the grace period. Within the grace period an
 * entry is still the base of the next repetition, so it stays. Same reference when none go.
 */
export function sweepCooldowns(doc: ToolHealthDocument, now: Date, graceMs: number): ToolHealthDocument {
  const cutoff = now.getTime() - graceMs;
  const cooldowns = doc.cooldowns.filter((e) => e.nextSpawnAllowedAt.getTime() >= cutoff);
  return cooldowns.length === doc.cooldowns.length ? doc : { ...doc, cooldowns, updatedAt: now };
}

/**
 * A DOWN verdict without an estimate never turns RETESTING by itself, so once nobody has
 * looked at it for `probeAfterMs` it is listed for a probe (D11). A pinned entry is left out: a
 * verdict cannot change its status until the pin ends (D4b).
 */
export function isDueForProbe(doc: ToolHealthDocument, now: Date, probeAfterMs: number): boolean {
  if (doc.status !== ToolStatus.DOWN || doc.expectedRecoveryAt !== null || isPinned(doc, now)) return false;
  const lastLook = doc.lastCheckedAt ?? doc.since;
  return now.getTime() - lastLook.getTime() > probeAfterMs;
}
