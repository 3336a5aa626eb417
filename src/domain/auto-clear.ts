import { ToolHealthClassification } from './classification';
import { expireCooldowns } from './cooldown-policy';
import { applyStatus } from './health-entry';
import { CooldownEntry, ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

export const AUTO_CLEAR_ACTOR = 'auto-clear';

/** Without named signatures, one success disproves only these; the others are not technical or not one-off (D10). */
const DISPROVEN_BY_ANY_SUCCESS: ReadonlySet<ToolHealthClassification> = new Set([
  ToolHealthClassification.USER_SPECIFIC_TECHNICAL,
  ToolHealthClassification.TECHNICALLY_BROKEN,
]);

export interface SuccessReport {
  userId: string | null;
  errorSignatures?: string[];
  now: Date;
  historyLimit: number;
}

/**
 * DOWN is disproven by any success; DEGRADED only once its recovery estimate has come (D10).
 * A pinned document's STORED status too (P6, D18): the pin keeps overriding it on read, and when
 * the pin ends a stale DOWN must not resurface as "do not call" with no way back. Which documents
 * a success may reach at all is scope-of-evidence.ts (successTargets), the caller's job.
 */
function disprovenStatus(doc: ToolHealthDocument, now: Date): boolean {
  if (doc.status === ToolStatus.DOWN) return true;
  return doc.status === ToolStatus.DEGRADED && (doc.expectedRecoveryAt === null || doc.expectedRecoveryAt.getTime() <= now.getTime());
}

/**
 * §6 auto-clear on one document of the caller's cascade. Returns the SAME reference when
 * nothing changes: the success path is the hottest one, and no change must mean no write.
 */
export function applySuccess(doc: ToolHealthDocument, s: SuccessReport): ToolHealthDocument {
  const named = s.errorSignatures && s.errorSignatures.length > 0 ? new Set(s.errorSignatures) : null;
  const match = (e: CooldownEntry) =>
    (e.userId === null || e.userId === s.userId) &&
    (named ? named.has(e.errorSignature) : DISPROVEN_BY_ANY_SUCCESS.has(e.lastClassification));

  let next = expireCooldowns(doc, match, s.now);
  if (disprovenStatus(next, s.now)) {
    next = applyStatus(next, {
      status: ToolStatus.OK,
      expectedRecoveryAt: null,
      code: null,
      historyLimit: s.historyLimit,
      now: s.now,
      diagnosis: { classification: ToolHealthClassification.WORKING, code: null, note: null, by: AUTO_CLEAR_ACTOR, at: s.now },
    });
  } else if (next !== doc) {
    // LastCheckedAt moves on any success that writes (D12).
    next = { ...next, lastCheckedAt: s.now };
  }
  return next;
}
