import { Float, ID, Int } from '@nestjs/graphql';
import { CooldownPayload, DeletedPayload, InboxItemPayload, PinPayload, StatusChangedPayload } from '../../domain/health-events';
import { MaintenancePayload } from '../../domain/maintenance-window';
import { WiderEvidencePayload } from '../../domain/wider-evidence';
import { WebhookEndpointDisabledPayload } from '../../domain/webhook-disabled';
import { SignalKind, SignalPayload } from '../../domain/tool-signals';
import { ToolErrorCode, ToolHealthClassification, ToolStatus } from '../../shapes/enums.registration';
import { INSTANT, NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType, enumView } from '../../shapes/view-field';

// The payloads of the events (D13), one class each for REST and GraphQL (P115). Each implements
// its domain payload, so a field the domain adds and the answer lacks fails `tsc`. The event's
// `type` picks the payload: a discriminated oneOf in OpenAPI (events.dto.ts), a union in GraphQL
// (health-event.model.ts).

const STATUS = enumView(ToolStatus, 'ToolStatus');
const CODE = { ...enumView(ToolErrorCode, 'ToolErrorCode'), nullable: true };
const CLASSIFICATION = enumView(ToolHealthClassification, 'ToolHealthClassification');
const INTEGER: ViewFieldOptions = { type: () => Int, openapi: { type: 'integer' } };
const BY = 'Who wrote it: an admin, a diagnosis engine or a system component.';

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

@ViewType(
  'MaintenancePayload',
  'The payload of a MAINTENANCE_STARTING, MAINTENANCE_STARTED or MAINTENANCE_ENDED event: a maintenance window starts soon, began or ended.',
)
export class MaintenancePayloadView implements MaintenancePayload {
  @ViewField('The window.', { type: () => ID, openapi: { type: String } }) windowId: string;
  @ViewField('When the window begins.', INSTANT) from: Date;
  @ViewField('When the tool is expected back.', INSTANT) until: Date;
  @ViewField('Why the tool is under maintenance, in words an LLM may read.') reason: string;
  @ViewField('The admin who scheduled or last changed it.') by: string;
  @ViewField('Set when the window ended because it was cancelled.', { ...INSTANT, nullable: true }) cancelledAt: Date | null;
}

@ViewType(
  'WiderEvidencePayload',
  'The payload of a WIDER_EVIDENCE event: failures of one (tool, signature) seen by enough users and projects to be wider than one of them.',
)
export class WiderEvidencePayloadView implements WiderEvidencePayload {
  @ViewField('The error signature the failures share.') errorSignature: string;
  @ViewField('Distinct users whose calls failed so in the window.', INTEGER) distinctUsers: number;
  @ViewField('Distinct projects among them.', INTEGER) distinctProjects: number;
  @ViewField('The start of the window counted.', INSTANT) since: Date;
  @ViewField("The diagnosis queue's key for the wider scope.") coalescingKey: string;
}

@ViewType(
  'WebhookEndpointDisabledPayload',
  'The payload of a WEBHOOK_ENDPOINT_DISABLED event: a webhook endpoint whose delivery kept failing for 24 hours was disabled.',
)
export class WebhookEndpointDisabledPayloadView implements WebhookEndpointDisabledPayload {
  @ViewField('The endpoint disabled.', { type: () => ID, openapi: { type: String } }) endpointId: string;
  @ViewField('Why, in words: the last failure.') reason: string;
  @ViewField('When the first failed attempt of the delivery that gave up was made.', INSTANT) failingSince: Date;
  @ViewField('How many attempts that delivery had.', INTEGER) attempts: number;
}

const SHARE: ViewFieldOptions = { type: () => Float, nullable: true, openapi: { type: 'number', minimum: 0, maximum: 1 } };
const NULLABLE_INTEGER: ViewFieldOptions = { ...INTEGER, nullable: true };

@ViewType(
  'SignalPayload',
  "The payload of a SIGNAL_STARTED or SIGNAL_ENDED event: a tool's recent calls started or stopped failing often or being slow compared with its usual. Evidence only: the status is unchanged.",
)
export class SignalPayloadView implements SignalPayload {
  @ViewField('Which signal started or ended.', enumView(SignalKind, 'SignalKind')) signal: SignalKind;
  @ViewField('The signals on after the change, in words as the LLM reads them; null when none is left.', NULLABLE_STRING)
  text: string | null;
  @ViewField('Calls in the recent minutes when it started; null when it ended.', NULLABLE_INTEGER) recentCalls: number | null;
  @ViewField('Failing often: the recent success rate, 0 … 1.', SHARE) recentSuccessRate: number | null;
  @ViewField('Failing often: the usual success rate, 0 … 1.', SHARE) usualSuccessRate: number | null;
  @ViewField('Slow: the recent 95th percentile duration, ms.', NULLABLE_INTEGER) recentP95Ms: number | null;
  @ViewField('Slow: the usual 95th percentile duration, ms.', NULLABLE_INTEGER) usualP95Ms: number | null;
}
