import { Float, ID, Int } from '@nestjs/graphql';
import { PinStatus, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus } from './enums.registration';
import { valuesNeverChangedInPlace } from './answer-json';
import { Node } from './node.interface';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType, enumView } from './view-field';

// A stored health document as both APIs answer it (§5 + D3b): one class per shape (P115), the
// OpenAPI schema under the class's name, the GraphQL type under the ViewType name.

const CLASSIFICATION = enumView(ToolHealthClassification, 'ToolHealthClassification');
const STATUS = enumView(ToolStatus, 'ToolStatus');
const CODE = enumView(ToolErrorCode, 'ToolErrorCode');
const BY = 'Who wrote it: an admin, a diagnosis engine or a system component.';

@ViewType('Diagnosis', 'A verdict or a system write.')
export class DiagnosisView {
  @ViewField('What kind of failure (or WORKING) the diagnosis found.', { ...CLASSIFICATION, nullable: true })
  classification: ToolHealthClassification | null;
  @ViewField('What the dispatch saw when the tool failed, if anything.', { ...CODE, nullable: true }) code: ToolErrorCode | null;
  @ViewField('What was observed, in words.', NULLABLE_STRING) note: string | null;
  @ViewField(BY) by: string;
  @ViewField('When it happened.', INSTANT) at: Date;
}

@ViewType('HistoryItem', 'One change in the history of an entry (the history keeps the latest ones, newest last).')
export class HistoryItemView extends DiagnosisView {
  @ViewField('The status the entry took.', STATUS) status: ToolStatus;
  @ViewField('The recovery time expected at that point, if any.', { ...INSTANT, nullable: true }) recoveryAt: Date | null;
}
// A history item is made once and carried by identity from version to version of its entry (P355, P356).
valuesNeverChangedInPlace(HistoryItemView);

@ViewType('Cooldown', 'A cooldown of one error signature: no new diagnosis of that error until it ends.')
export class CooldownView {
  @ViewField('A stable name for the error, e.g. "http-403".') errorSignature: string;
  @ViewField('The user of a user-specific cooldown or note; null when it concerns everyone at the scope.', NULLABLE_STRING)
  userId: string | null;
  @ViewField('When a diagnosis of this error may be spawned again: the end of the cooldown.', INSTANT) nextSpawnAllowedAt: Date;
  @ViewField('How many failures with this signature met the cooldown while it ran.', { type: () => Int, openapi: { type: 'integer' } })
  hits: number;
  @ViewField('The classification that set or renewed the cooldown.', CLASSIFICATION) lastClassification: ToolHealthClassification;
  @ViewField('When a failure last met the running cooldown; null if none has.', { ...INSTANT, nullable: true })
  lastTriggeredAt: Date | null;
  // Float in GraphQL: an explicit window may reach 30 days, past GraphQL Int's 2^31 ms (≈ 24.8 days).
  @ViewField('The length of the current cooldown window, in milliseconds.', { type: () => Float, openapi: { type: 'integer' } })
  windowMs: number;
}

@ViewType('Pin', 'An admin override of the status until an instant.')
export class PinView {
  // GraphQL's PinStatus enum; in OpenAPI the two values inline (no named enum of its own).
  @ViewField('The status the pin holds: OK or DOWN.', { type: () => PinStatus, openapi: { enum: [ToolStatus.OK, ToolStatus.DOWN] } })
  status: PinStatus;
  @ViewField('When it ends.', INSTANT) until: Date;
  @ViewField('Why the admin pinned it.') reason: string;
  @ViewField(BY) by: string;
  @ViewField('When it happened.', INSTANT) at: Date;
}

@ViewType('ToolHealth', 'The stored health entry of one tool at one scope.', () => [Node])
export class ToolHealthView {
  @ViewField("The entry's id (its scope, scope id and tool name, encoded).", { type: () => ID, openapi: { type: String } }) id: string;
  @ViewField('Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).', enumView(Scope, 'Scope'))
  scope: Scope;
  @ViewField('The id of the session, user, project or tenant; null for GLOBAL.', NULLABLE_STRING) scopeId: string | null;
  @ViewField('The tool, e.g. "jira_search".') toolName: string;
  @ViewField('The tenant (organisation).', NULLABLE_STRING) tenantId: string | null;
  @ViewField('Whether the tool is usable: OK, DEGRADED (works now and then) or DOWN.', STATUS) status: ToolStatus;
  @ViewField('Since when the entry has had its status.', INSTANT) since: Date;
  @ViewField('When the tool was last checked (diagnosed or probed).', { ...INSTANT, nullable: true }) lastCheckedAt: Date | null;
  @ViewField('When the tool is expected to work again, if known.', { ...INSTANT, nullable: true }) expectedRecoveryAt: Date | null;
  @ViewField('What the dispatch saw when the tool failed, if anything.', { ...CODE, nullable: true }) code: ToolErrorCode | null;
  @ViewField('When a failure was last reported for it.', { ...INSTANT, nullable: true }) lastFailureAt: Date | null;
  @ViewField('The latest diagnosis verdict, if any.', { type: () => DiagnosisView, nullable: true, openapi: { type: DiagnosisView } })
  lastDiagnosis: DiagnosisView | null;
  @ViewField("The latest changes of the entry, oldest first (how many are kept is the tenant's history limit).", {
    type: () => [HistoryItemView],
    openapi: { type: [HistoryItemView] },
  })
  history: HistoryItemView[];
  @ViewField('The cooldowns of the entry, one per error signature (and user).', {
    type: () => [CooldownView],
    openapi: { type: [CooldownView] },
  })
  cooldowns: CooldownView[];
  // Optional in OpenAPI as it has always been, though every answer carries it (null without a pin).
  @ViewField('An admin pin in force on the entry, if any.', {
    type: () => PinView,
    nullable: true,
    openapi: { type: PinView, required: false },
  })
  pin: PinView | null;
  @ViewField("The tool's description as its client last sent it, so a departed client tool can still be listed.", NULLABLE_STRING)
  description: string | null;
  @ViewField('Grows by one with every write of the entry.', { type: () => Int, openapi: { type: 'integer' } }) version: number;
  @ViewField('When the entry was first written.', INSTANT) createdAt: Date;
  @ViewField('When it was last written.', INSTANT) updatedAt: Date;
}
