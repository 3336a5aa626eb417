import { ToolHealthClassification, USER_CLASSES } from './classification';
import { DomainError } from './domain-error';
import { Scope } from './scope';
import { CooldownEntry, HealthKey, ToolHealthDocument } from './tool-health-document';

/**
 * The scope of evidence (D18 / P50). A call outcome is evidence about the backend that answered
 * THIS caller, so it may touch only the documents that governed this caller's call:
 *
 * - reach: the caller's cascade narrow → wide, up to and including the narrowest document with a
 *   pin in force. A pin shadows every wider entry for this caller (D4b), and an OK pin means "this
 *   scope runs its own backend": acme's success says nothing about the GLOBAL jira.
 * - a success disproves within that reach, the pinned document's stored status included (the pin
 *   stays; the status beneath it follows the evidence, so a stale DOWN does not resurface, P6);
 * - a technical failure marks `lastFailureAt` within that reach; a user-class failure
 *   (USER_PERMISSION, USER_INPUT) only on the user's own documents (SESSION, USER); a failure that
 *   met an active cooldown marks nothing (the cooldown's own `lastTriggeredAt` records it);
 * - a user-class cooldown always names its user, and a scope-wide (`userId: null`) entry of a user
 *   class binds nobody: Bob is never stopped by Alice's USER_PERMISSION (§6).
 */

/** The scopes that belong to one caller alone (a session is one user's, user ids are platform-wide). */
const OWN_SCOPES: ReadonlySet<Scope> = new Set([Scope.SESSION, Scope.USER]);

export function isUserClass(classification: ToolHealthClassification | null | undefined): boolean {
  return classification != null && USER_CLASSES.has(classification);
}

/*
 * The reach itself (up to and including the narrowest pin in force) is the call's evaluation
 * (call-evaluation.ts, D20): a success may change its `reachEntries`, a failure mark them.
 */

export interface FailureEvidence {
  /** The checker's classification, or the class of the cooldown the failure met. */
  classification: ToolHealthClassification | null;
  /** The failure met an active cooldown: it is a repetition, not news. */
  inCooldown: boolean;
}

/**
 * Ids of the documents in reach (the evaluation's `reachEntries`) whose `lastFailureAt` a failure
 * report moves (D10b bookkeeping, D18). The governing entry's mark during a cooldown is D20's,
 * added by the failure check.
 */
export function failureMarkTargets(reach: readonly ToolHealthDocument[], evidence: FailureEvidence): string[] {
  if (evidence.inCooldown) return [];
  const own = isUserClass(evidence.classification) ? reach.filter((d) => OWN_SCOPES.has(d.scope)) : reach;
  return own.map((d) => d.id);
}

/**
 * Whether a stored cooldown entry stops this caller (D8 with D18): the caller's own entry, or a
 * scope-wide one of a class that is not about one user. A user-class entry with `userId: null`
 * (written before this rule, or by hand) binds nobody.
 */
export function cooldownBindsCaller(entry: CooldownEntry, callerUserId: string | null): boolean {
  if (entry.userId !== null) return entry.userId === callerUserId;
  return !USER_CLASSES.has(entry.lastClassification);
}

/**
 * The user a cooldown written at `key` belongs to (REST, Agrajag, admin). A user-class cooldown
 * without a userId: at USER scope it is that user's; anywhere else it is refused (400 naming
 * `userId`), because a scope-wide one would stop every other user of the scope.
 */
export function cooldownOwner(key: HealthKey, classification: ToolHealthClassification, userId: string | null | undefined): string | null {
  if (userId != null) return userId;
  if (!USER_CLASSES.has(classification)) return null;
  if (key.scope === Scope.USER) return key.scopeId;
  throw DomainError.invalid('userId', `a ${classification} cooldown belongs to one user: name the userId (or write it at USER scope)`);
}

/**
 * The tenant of a document, which governs its history limit (D12): a TENANT document's own, none
 * for GLOBAL (the default), otherwise the one the stored document records — fixed at creation, a
 * null stays null (D20: no later caller adopts it) — and the writer's hint only for a write that
 * creates the document.
 */
export function documentTenant(
  key: HealthKey,
  stored: Pick<ToolHealthDocument, 'tenantId'> | null,
  hint: string | null | undefined,
): string | null {
  if (key.scope === Scope.GLOBAL) return null;
  if (key.scope === Scope.TENANT) return key.scopeId;
  return stored ? stored.tenantId : (hint ?? null);
}
