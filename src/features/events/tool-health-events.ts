import { Float } from '@nestjs/graphql';
import {
  CooldownPayload,
  DeletedPayload,
  HealthEventType,
  InboxItemPayload,
  PinPayload,
  StatusChangedPayload,
} from '../../domain/health-events';
import { ToolErrorCode, ToolHealthClassification, ToolStatus } from '../../shapes/enums.registration';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType } from '../../shapes/view-field';
import { BY, CLASSIFICATION, CODE, EventRows, STATUS } from '../../shapes/event-row';

// The events a write of a health entry yields (found by diffing the document before and after it,
// src/domain/health-events.ts) and the admin's hard delete: their payload classes, one each for REST
// and GraphQL (P115), and their rows of the event catalogue. Each class implements its domain
// payload, so a field the domain adds and the answer lacks fails `tsc`.

@ViewType('StatusChangedPayload', 'The payload of a STATUS_CHANGED event.')
export class StatusChangedPayloadView implements StatusChangedPayload {
  @ViewField('The status before; null when there was no entry (it read as OK).', { ...STATUS, nullable: true })
  previousStatus: ToolStatus | null;
  @ViewField('When the tool is expected to work again, if known.', { ...INSTANT, nullable: true }) expectedRecoveryAt: Date | null;
  @ViewField('What the dispatch saw when the tool failed, if anything.', CODE) code: ToolErrorCode | null;
  @ViewField("The class of the verdict that changed it; null for a system write, a success's auto-clear and an admin's act.", {
    ...CLASSIFICATION,
    nullable: true,
  })
  classification: ToolHealthClassification | null;
  @ViewField('Why, in words: the note of the verdict or system write that changed it; null when none was given.', NULLABLE_STRING)
  note: string | null;
  @ViewField(`${BY} Null when the change recorded no writer.`, NULLABLE_STRING) by: string | null;
}

@ViewType('CooldownPayload', 'The payload of a COOLDOWN_SET or COOLDOWN_EXPIRED event: a cooldown set or expired.')
export class CooldownPayloadView implements CooldownPayload {
  @ViewField('A stable name for the error, e.g. "http-403".') errorSignature: string;
  @ViewField('The user of a user-specific cooldown; null when it concerns everyone at the scope.', NULLABLE_STRING) userId: string | null;
  @ViewField('When a diagnosis of this error may be spawned again: the end of the cooldown.', INSTANT) nextSpawnAllowedAt: Date;
  // Float in GraphQL: an explicit window may reach 30 days, past GraphQL Int's 2^31 ms (≈ 24.8 days).
  @ViewField('The length of the cooldown window, in milliseconds.', { type: () => Float, openapi: { type: 'integer' } }) windowMs: number;
  @ViewField('The classification that set or renewed the cooldown.', CLASSIFICATION) lastClassification: ToolHealthClassification;
}

@ViewType('InboxItemPayload', 'The payload of an INBOX_ITEM event: a diagnosis note for a user, or for everyone.')
export class InboxItemPayloadView implements InboxItemPayload {
  @ViewField('The user to notify; null for a tool-wide outage.', NULLABLE_STRING) userId: string | null;
  @ViewField('What kind of failure (or WORKING) the diagnosis found.', CLASSIFICATION) classification: ToolHealthClassification;
  @ViewField('What was observed, in words.', NULLABLE_STRING) note: string | null;
  @ViewField(BY) by: string;
  @ViewField('What the dispatch saw when the tool failed, if anything.', CODE) code: ToolErrorCode | null;
}

@ViewType('PinPayload', 'The payload of a PIN_SET, PIN_CLEARED or PIN_ENDED event: an admin pin set, changed or removed.')
export class PinPayloadView implements PinPayload {
  @ViewField('The status the pin holds.', STATUS) pinnedStatus: ToolStatus;
  @ViewField('When the pin ends.', INSTANT) until: Date;
  @ViewField('Why the admin pinned it.') reason: string;
  @ViewField(BY) by: string;
}

@ViewType('DeletedPayload', 'The payload of a DELETED event: an entry deleted for good by an admin.')
export class DeletedPayloadView implements DeletedPayload {
  @ViewField('The status the entry had.', STATUS) previousStatus: ToolStatus;
  @ViewField(BY) by: string;
}

export const TOOL_HEALTH_EVENTS = {
  [HealthEventType.STATUS_CHANGED]: {
    description: "The entry's status changed.",
    payload: StatusChangedPayloadView,
    summary: (event, { head, clock, clip, words }) => {
      // Sentences: what it is now and was, why (the verdict's class, else the code the dispatch saw, then the note), until when, by whom.
      const was = event.payload.previousStatus ? `, was ${event.payload.previousStatus}` : '';
      const what = event.payload.classification ?? event.payload.code;
      const why = [what && words(what), event.payload.note && clip(event.payload.note)].filter(Boolean).join(' — ');
      const back = event.payload.expectedRecoveryAt ? ` Expected back at ${clock(event.payload.expectedRecoveryAt)}.` : '';
      const who = event.payload.by ? ` By ${event.payload.by}.` : '';
      return `${head}${was}${why ? `: ${why}` : ''}.${back}${who}`;
    },
  },
  [HealthEventType.COOLDOWN_SET]: {
    description: 'A cooldown was set, renewed, or its end or class changed.',
    payload: CooldownPayloadView,
    summary: (event, { head, clock, words }) =>
      `${head} — ${event.payload.errorSignature} was diagnosed (${words(event.payload.lastClassification)}); it is not diagnosed again before ${clock(event.payload.nextSpawnAllowedAt)}`,
  },
  [HealthEventType.COOLDOWN_EXPIRED]: {
    description: 'A cooldown was ended early (a success or a working verdict disproved it).',
    payload: CooldownPayloadView,
    summary: (event, { head }) => `${head} — ${event.payload.errorSignature} may be diagnosed again (its cooldown was ended early)`,
  },
  [HealthEventType.INBOX_ITEM]: {
    description: 'A diagnosis note for a user, or for everyone.',
    payload: InboxItemPayloadView,
    summary: (event, { head, clip, words }) =>
      `${head}: ${words(event.payload.classification)}${event.payload.note ? ` — ${clip(event.payload.note)}` : ''}. Diagnosed by ${event.payload.by}.`,
  },
  [HealthEventType.PIN_SET]: {
    description: 'An admin pin was set or changed.',
    payload: PinPayloadView,
    summary: (event, { where, clock, clip }) =>
      `${event.toolName} is pinned ${event.payload.pinnedStatus} ${where} by ${event.payload.by} until ${clock(event.payload.until)} (${clip(event.payload.reason)})${event.status !== event.payload.pinnedStatus ? `; its entry says ${event.status}` : ''}`,
  },
  [HealthEventType.PIN_CLEARED]: {
    description: 'An admin pin was removed before its end.',
    payload: PinPayloadView,
    summary: (event, { head, clip }) => `${head} — the pin to ${event.payload.pinnedStatus} (${clip(event.payload.reason)}) was removed`,
  },
  [HealthEventType.DELETED]: {
    description: 'The entry was deleted for good by an admin.',
    payload: DeletedPayloadView,
    summary: (event, { where }) =>
      `${event.toolName} ${where}: the entry (${event.payload.previousStatus}) was deleted by ${event.payload.by}; wider entries decide now`,
  },
  [HealthEventType.PIN_ENDED]: {
    description: 'A pin ran out by itself; the stored status applies again.',
    payload: PinPayloadView,
    summary: (event, { head, clip }) => `${head} — the pin to ${event.payload.pinnedStatus} (${clip(event.payload.reason)}) ran out`,
  },
} satisfies EventRows;
