import { ToolHealthClassification } from './classification';
import type { CascadeReason } from './cascade';
import { cooldownEntryKey } from './cooldown-policy';
import type { MaintenancePayload } from './maintenance-window';
import type { WiderEvidencePayload } from './wider-evidence';
import type { SignalPayload } from './tool-signals';
import type { WebhookEndpointDisabledPayload } from './webhook-disabled';
import { Scope } from './scope';
import { CooldownEntry, HistoryItem, Pin, ToolHealthDocument } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';
import type { SameKeys } from './same-keys';

export enum HealthEventType {
  STATUS_CHANGED = 'STATUS_CHANGED',
  COOLDOWN_SET = 'COOLDOWN_SET',
  COOLDOWN_EXPIRED = 'COOLDOWN_EXPIRED',
  INBOX_ITEM = 'INBOX_ITEM',
  /** An admin pin set or changed (D4b): the effective status may have changed with it. */
  PIN_SET = 'PIN_SET',
  /** An admin pin removed before its end. */
  PIN_CLEARED = 'PIN_CLEARED',
  /** A pin that ran out by itself: the stored status beneath it applies again (P55). */
  PIN_ENDED = 'PIN_ENDED',
  /** The document was hard-deleted by an admin (D14). */
  DELETED = 'DELETED',
  /** Issue 16 (P77): a maintenance window began / ended (or was cancelled while in force). */
  MAINTENANCE_STARTED = 'MAINTENANCE_STARTED',
  MAINTENANCE_ENDED = 'MAINTENANCE_ENDED',
  /** A maintenance window (one-off or an occurrence of a series) starts within the warning lead time (P192). */
  MAINTENANCE_STARTING = 'MAINTENANCE_STARTING',
  /** Issue 16 (P79): failures of one (tool, signature) crossed the wider-evidence thresholds. */
  WIDER_EVIDENCE = 'WIDER_EVIDENCE',
  /** A webhook endpoint whose deliveries failed for 24 h was disabled; it names no tool (D24 (P184)). */
  WEBHOOK_ENDPOINT_DISABLED = 'WEBHOOK_ENDPOINT_DISABLED',
  /** Issue 39: a tool's calls started failing often or being slow, compared with its usual (evidence, no status change). */
  SIGNAL_STARTED = 'SIGNAL_STARTED',
  /** Issue 39: that signal ended. */
  SIGNAL_ENDED = 'SIGNAL_ENDED',
}

export interface StatusChangedPayload {
  /** null when the document did not exist before (it read as OK). */
  previousStatus: ToolStatus | null;
  expectedRecoveryAt: Date | null;
  code: ToolErrorCode | null;
  /**
   * Why, and who said so: the history item the write added (a verdict's class and note, a system
   * write's note and source, "auto-clear" for a success), so a receiver needs no second read
   * (P228); null when the write added none.
   */
  classification: ToolHealthClassification | null;
  note: string | null;
  by: string | null;
}

export interface CooldownPayload {
  errorSignature: string;
  userId: string | null;
  nextSpawnAllowedAt: Date;
  windowMs: number;
  lastClassification: ToolHealthClassification;
}

export interface InboxItemPayload {
  /** The user to notify; null for a tool-wide outage (TECHNICALLY_BROKEN). */
  userId: string | null;
  classification: ToolHealthClassification;
  note: string | null;
  by: string;
  code: ToolErrorCode | null;
}

export interface PinPayload {
  pinnedStatus: ToolStatus;
  until: Date;
  reason: string;
  by: string;
}

export interface DeletedPayload {
  previousStatus: ToolStatus;
  by: string;
}

interface EventBase {
  /**
   * `<docId>:<life>:<version>:<type>[:<errorSignature>:<userId|*>]` (P54): the same write yields
   * the same ids; `life` is new for every creation of the document, so a document created again
   * after a hard delete or purge never repeats an id of its earlier life. The cooldown parts are
   * URI-encoded (`*` too), so `:` inside a signature or user id cannot make two ids collide.
   */
  id: string;
  docId: string;
  scope: Scope;
  scopeId: string | null;
  toolName: string;
  /** The document's status after the write. */
  status: ToolStatus;
  /**
   * What the event's scope reads as at its instant: the one evaluation of a caller at that scope
   * (its own entry, the wider ones, pins, windows in force), so a tenant's event reads DOWN while
   * the tool is DOWN for everyone (D27). Written with the entry's own pin at the write, and
   * evaluated again when the relay publishes the event (scopeStatus, src/write-path/event-scope-status.ts).
   */
  effectiveStatus: ToolStatus;
  /**
   * Why it reads so, and where and until when that is decided, set when the event is published:
   * null for an event about no tool, and on events stored before it existed.
   */
  effective?: EffectiveSource | null;
  /** The tenant the entry belongs to, where one is known (a TENANT entry's id, or the tenant stored on it); else null. */
  tenantId: string | null;
  at: Date;
}

/** Where an event's effective status comes from (see EventBase.effective). */
export interface EffectiveSource {
  reason: CascadeReason;
  /** The scope of the entry or window that decides; null when nothing anywhere is wrong (the default OK). */
  scope: Scope | null;
  scopeId: string | null;
  /** A pin's end, a window's end or an expected recovery, where known. */
  until: Date | null;
}

/** The tenant of an entry, as an event names it. */
export function tenantOfKey(key: { scope: Scope; scopeId: string | null; tenantId?: string | null }): string | null {
  return key.scope === Scope.TENANT ? key.scopeId : (key.tenantId ?? null);
}

/** The entry's own reading at `at` (its pin while in force, else its stored status): an event's effectiveStatus as written, before the relay evaluates its scope (EventScopeStatus). */
export function effectiveStatusOf(doc: Pick<ToolHealthDocument, 'status' | 'pin'>, at: Date): ToolStatus {
  return doc.pin && doc.pin.until.getTime() > at.getTime() ? doc.pin.status : doc.status;
}

/**
 * Each event type with the payload it carries: the one list the event union below is built from.
 * A type added to HealthEventType without its payload here fails `tsc` (EVERY_EVENT_TYPE_HAS_A_PAYLOAD);
 * its description, answer class and summary line are the feature's row in the event catalogue
 * (src/features/events/event-catalogue.ts, docs/adding-an-event.md).
 */
export interface HealthEventPayloads {
  [HealthEventType.STATUS_CHANGED]: StatusChangedPayload;
  [HealthEventType.COOLDOWN_SET]: CooldownPayload;
  [HealthEventType.COOLDOWN_EXPIRED]: CooldownPayload;
  [HealthEventType.INBOX_ITEM]: InboxItemPayload;
  [HealthEventType.PIN_SET]: PinPayload;
  [HealthEventType.PIN_CLEARED]: PinPayload;
  [HealthEventType.PIN_ENDED]: PinPayload;
  [HealthEventType.DELETED]: DeletedPayload;
  [HealthEventType.MAINTENANCE_STARTED]: MaintenancePayload;
  [HealthEventType.MAINTENANCE_ENDED]: MaintenancePayload;
  [HealthEventType.MAINTENANCE_STARTING]: MaintenancePayload;
  [HealthEventType.WIDER_EVIDENCE]: WiderEvidencePayload;
  [HealthEventType.WEBHOOK_ENDPOINT_DISABLED]: WebhookEndpointDisabledPayload;
  [HealthEventType.SIGNAL_STARTED]: SignalPayload;
  [HealthEventType.SIGNAL_ENDED]: SignalPayload;
}

export const EVERY_EVENT_TYPE_HAS_A_PAYLOAD: SameKeys<HealthEventType, keyof HealthEventPayloads> = true;

/** One event of type T, its payload narrowed. */
export type HealthEventOf<T extends HealthEventType> = EventBase & { type: T; payload: HealthEventPayloads[T] };

/** Any event: a union discriminated by `type`, one member per event type. */
export type HealthEvent = { [T in HealthEventType]: HealthEventOf<T> }[HealthEventType];

/**
 * The events of one write, found by diffing the stored document before and after it, so
 * every write path (system, checker, verdict, success, admin) emits the same way (D13). Pass `after`
 * as stored, with its new `version`: the ids embed it. `after.updatedAt` is the write's "now".
 */
export function healthEventsOf(before: ToolHealthDocument | null, after: ToolHealthDocument, life = '0'): HealthEvent[] {
  const now = after.updatedAt.getTime();
  const base = (type: HealthEventType, suffix = '') => ({
    id: eventId(after.id, life, after.version, type, suffix),
    docId: after.id,
    scope: after.scope,
    scopeId: after.scopeId,
    toolName: after.toolName,
    status: after.status,
    effectiveStatus: effectiveStatusOf(after, after.updatedAt),
    tenantId: tenantOfKey(after),
    at: after.updatedAt,
  });
  const events: HealthEvent[] = [];

  // A missing document reads as OK (§4 default), so creating an OK one changes nothing.
  if ((before?.status ?? ToolStatus.OK) !== after.status) {
    events.push({
      ...base(HealthEventType.STATUS_CHANGED),
      type: HealthEventType.STATUS_CHANGED,
      payload: {
        previousStatus: before?.status ?? null,
        expectedRecoveryAt: after.expectedRecoveryAt,
        code: after.code,
        ...reasonOf(addedHistoryItem(before, after)),
      },
    });
  }

  const previous = new Map((before?.cooldowns ?? []).map((e) => [cooldownEntryKey(e.errorSignature, e.userId), e]));
  const current = new Map(after.cooldowns.map((e) => [cooldownEntryKey(e.errorSignature, e.userId), e]));
  const cooldownEvent = (type: HealthEventType.COOLDOWN_SET | HealthEventType.COOLDOWN_EXPIRED, e: CooldownEntry): HealthEvent => ({
    ...base(type, `:${idPart(e.errorSignature)}:${e.userId === null ? '*' : idPart(e.userId)}`),
    type,
    payload: {
      errorSignature: e.errorSignature,
      userId: e.userId,
      nextSpawnAllowedAt: e.nextSpawnAllowedAt,
      windowMs: e.windowMs,
      lastClassification: e.lastClassification,
    },
  });

  for (const [key, e] of current) {
    const old = previous.get(key);
    // Only a cooldown still running after the write is "set"; one ending at once sets nothing.
    // Every change of its end — later or earlier — or of its class is a COOLDOWN_SET (D20).
    const changed =
      !old ||
      e.nextSpawnAllowedAt.getTime() !== old.nextSpawnAllowedAt.getTime() ||
      (e.lastClassification !== old.lastClassification && old.nextSpawnAllowedAt.getTime() > now);
    if (changed && e.nextSpawnAllowedAt.getTime() > now) events.push(cooldownEvent(HealthEventType.COOLDOWN_SET, e));
  }
  for (const [key, old] of previous) {
    if (old.nextSpawnAllowedAt.getTime() <= now) continue; // already over before this write: nothing ends now
    const e = current.get(key);
    if (!e) events.push(cooldownEvent(HealthEventType.COOLDOWN_EXPIRED, old));
    else if (e.nextSpawnAllowedAt.getTime() <= now) events.push(cooldownEvent(HealthEventType.COOLDOWN_EXPIRED, e));
  }

  const d = after.lastDiagnosis;
  const prior = before?.lastDiagnosis ?? null;
  const isNew = d !== null && (prior === null || prior.at.getTime() !== d.at.getTime() || prior.by !== d.by);
  if (d && isNew && d.classification !== null) {
    // §3.2: USER_SPECIFIC_TECHNICAL → inbox item to that user; TECHNICALLY_BROKEN → optional, tool-wide.
    const userId =
      d.classification === ToolHealthClassification.USER_SPECIFIC_TECHNICAL
        ? after.scopeId
        : d.classification === ToolHealthClassification.TECHNICALLY_BROKEN
          ? null
          : undefined;
    if (userId !== undefined) {
      events.push({
        ...base(HealthEventType.INBOX_ITEM),
        type: HealthEventType.INBOX_ITEM,
        payload: { userId, classification: d.classification, note: d.note, by: d.by, code: d.code },
      });
    }
  }
  const pinBefore = before?.pin ?? null;
  const pinAfter = after.pin;
  const samePin =
    pinBefore !== null &&
    pinAfter !== null &&
    pinBefore.status === pinAfter.status &&
    pinBefore.until.getTime() === pinAfter.until.getTime() &&
    pinBefore.reason === pinAfter.reason &&
    pinBefore.by === pinAfter.by &&
    pinBefore.at.getTime() === pinAfter.at.getTime();
  if (pinAfter && !samePin) {
    // A re-sent pin by another admin (or later) is a new act with its own history item: an event too.
    events.push({ ...base(HealthEventType.PIN_SET), type: HealthEventType.PIN_SET, payload: pinPayload(pinAfter) });
  } else if (!pinAfter && pinBefore) {
    // Removed once it had run out (by the pin watch, or an unpin after its end): it ended by time.
    const type = pinBefore.until.getTime() <= now ? HealthEventType.PIN_ENDED : HealthEventType.PIN_CLEARED;
    events.push({ ...base(type), type, payload: pinPayload(pinBefore) });
  }
  return events;
}

/** The history item this write added, if it added one (history is a ring buffer, newest last). */
function addedHistoryItem(before: ToolHealthDocument | null, after: ToolHealthDocument): HistoryItem | null {
  const newest = after.history.at(-1);
  if (!newest) return null;
  const prior = before?.history.at(-1);
  return prior && prior.at.getTime() === newest.at.getTime() && prior.by === newest.by ? null : newest;
}

function reasonOf(item: HistoryItem | null): Pick<StatusChangedPayload, 'classification' | 'note' | 'by'> {
  return { classification: item?.classification ?? null, note: item?.note ?? null, by: item?.by ?? null };
}

function pinPayload(pin: Pin): PinPayload {
  return { pinnedStatus: pin.status, until: pin.until, reason: pin.reason, by: pin.by };
}

/** URI-encoding, `*` included (it stands for "scope-wide" in an id). */
function idPart(value: string): string {
  return encodeURIComponent(value).replace(/\*/g, '%2A');
}

export function eventId(docId: string, life: string, version: number, type: HealthEventType, suffix = ''): string {
  return `${docId}:${life}:${version}:${type}${suffix}`;
}

/** The event of a hard delete, which no write diff can produce (D14). */
export function deletedEvent(doc: ToolHealthDocument, by: string, at: Date, life = '0'): HealthEvent {
  return {
    id: eventId(doc.id, life, doc.version, HealthEventType.DELETED),
    docId: doc.id,
    scope: doc.scope,
    scopeId: doc.scopeId,
    toolName: doc.toolName,
    status: doc.status,
    // Gone: the key reads as the default OK from now on.
    effectiveStatus: ToolStatus.OK,
    tenantId: tenantOfKey(doc),
    at,
    type: HealthEventType.DELETED,
    payload: { previousStatus: doc.status, by },
  };
}
