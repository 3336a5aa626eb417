import { TECHNICAL_CLASSES, ToolHealthClassification, USER_CLASSES } from './classification';
import { applyCooldown, expireCooldowns, findCooldown, hasRoomForCooldown } from './cooldown-policy';
import { DomainError } from './domain-error';
import { HealthReducer, applyStatus, newDocument } from './health-entry';
import { Scope } from './scope';
import { cooldownOwner } from './scope-of-evidence';
import { Diagnosis, HealthKey, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

/** An Agrajag verdict (§7 third row): tool_health_set_unavailable / _set_available / _set_cooldown. */
export interface DiagnosisVerdict {
  key: HealthKey;
  classification: ToolHealthClassification;
  note: string | null;
  by: string;
  expectedRecoveryAt?: Date | null;
  userId?: string | null;
  errorSignature?: string | null;
  durationMs?: number;
  code?: ToolErrorCode | null;
  now: Date;
  historyLimit: number;
  graceMs: number;
  tenantId?: string | null;
}

const SHARED_SCOPES: ReadonlySet<Scope> = new Set([Scope.PROJECT, Scope.TENANT, Scope.GLOBAL]);

/** The status each health-relevant class leaves behind (§3.2); user classes have none. */
const STATUS_OF: Partial<Record<ToolHealthClassification, ToolStatus>> = {
  [ToolHealthClassification.TECHNICALLY_BROKEN]: ToolStatus.DOWN,
  [ToolHealthClassification.USER_SPECIFIC_TECHNICAL]: ToolStatus.DOWN,
  [ToolHealthClassification.INTERMITTENT]: ToolStatus.DEGRADED,
  [ToolHealthClassification.WORKING]: ToolStatus.OK,
};

/** Checked before any read, so a bad verdict is a 400 and never costs a load. */
function validate(v: DiagnosisVerdict): void {
  if (!Object.values(ToolHealthClassification).includes(v.classification)) {
    throw DomainError.invalid('classification', `unknown classification ${String(v.classification)}`);
  }
  if (v.classification === ToolHealthClassification.TECHNICALLY_BROKEN && !SHARED_SCOPES.has(v.key.scope)) {
    throw DomainError.invalid('scope', 'TECHNICALLY_BROKEN is written at PROJECT, TENANT or GLOBAL');
  }
  if (v.classification === ToolHealthClassification.USER_SPECIFIC_TECHNICAL && v.key.scope !== Scope.USER) {
    throw DomainError.invalid('scope', 'USER_SPECIFIC_TECHNICAL is written at USER');
  }
  if (USER_CLASSES.has(v.classification) && !v.errorSignature) {
    throw DomainError.invalid('errorSignature', `${v.classification} only sets a cooldown and needs its error signature`);
  }
}

/**
 * D11 effects of one classification on the document at `key`. USER_PERMISSION and USER_INPUT
 * touch only their cooldown entry: a user's 403 must not contaminate shared state.
 */
export function applyDiagnosis(v: DiagnosisVerdict): HealthReducer {
  validate(v);
  // A user-class cooldown names its user (400 when it cannot) (D18).
  const owner = v.errorSignature ? cooldownOwner(v.key, v.classification, v.userId) : null;
  return (current) => {
    let doc = current ?? newDocument(v.key, v.now, v.tenantId ?? null);
    const status = STATUS_OF[v.classification];
    if (status !== undefined) {
      doc = applyStatus(doc, {
        status,
        // WORKING clears the estimate; applyStatus nulls it for OK anyway.
        expectedRecoveryAt: v.expectedRecoveryAt ?? null,
        code: v.code ?? null,
        historyLimit: v.historyLimit,
        now: v.now,
        tenantId: v.tenantId,
        diagnosis: diagnosis(v, v.classification),
      });
    }
    if (v.classification === ToolHealthClassification.WORKING) {
      // A probe disproves technical faults, not another user's missing right or bad input.
      return expireCooldowns(doc, (e) => TECHNICAL_CLASSES.has(e.lastClassification), v.now);
    }
    // The verdict's status is recorded even when the cooldown list is full (D7); only the
    // cooldown is refused (cooldownRefused tells the caller) (D20). A verdict that is nothing but a
    // cooldown (user classes) still gets the cap's 409.
    if (v.errorSignature && status !== undefined && !hasRoomForCooldown(doc, v.errorSignature, owner, v.now)) return doc;
    if (v.errorSignature) {
      // After the status: TECHNICALLY_BROKEN's cooldown couples to the expectedRecoveryAt just set.
      doc = applyCooldown(doc, {
        errorSignature: v.errorSignature,
        userId: owner,
        classification: v.classification,
        durationMs: v.durationMs,
        now: v.now,
        graceMs: v.graceMs,
      });
    }
    return doc;
  };
}

/**
 * Whether a verdict's cooldown was refused by the cap (its status was still recorded): it
 * named a signature, its class sets a cooldown, and the stored document has no such entry (D20).
 */
export function cooldownRefused(
  v: Pick<DiagnosisVerdict, 'key' | 'classification' | 'errorSignature' | 'userId'>,
  after: ToolHealthDocument | null,
): boolean {
  if (!v.errorSignature || v.classification === ToolHealthClassification.WORKING || after === null) return false;
  const owner = cooldownOwner(v.key, v.classification, v.userId);
  return findCooldown(after, v.errorSignature, owner) === undefined;
}

function diagnosis(
  v: { note?: string | null; by: string; code?: ToolErrorCode | null; now: Date },
  classification: ToolHealthClassification | null,
): Diagnosis {
  return { classification, code: v.code ?? null, note: v.note ?? null, by: v.by, at: v.now };
}

export interface ClearRequest {
  key: HealthKey;
  by: string;
  note?: string | null;
  now: Date;
  historyLimit: number;
}

/**
 * tool_health_clear: back to OK and every active cooldown of the entry ends (kept, so the
 * ladder remembers). The history records who cleared, with no classification: a clear is an
 * act, not a diagnosis. Nothing stored → nothing to clear, no document created.
 */
export function clearEntry(v: ClearRequest): HealthReducer {
  return (current) => {
    if (current === null) return null;
    const cleared = applyStatus(current, {
      status: ToolStatus.OK,
      expectedRecoveryAt: null,
      code: null,
      historyLimit: v.historyLimit,
      now: v.now,
      diagnosis: diagnosis(v, null),
    });
    return expireCooldowns(cleared, () => true, v.now);
  };
}
