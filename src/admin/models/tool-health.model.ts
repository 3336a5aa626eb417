import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { PinStatus, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus } from './enums.registration';

@ObjectType('Diagnosis', { description: 'A verdict or a system write.' })
export class DiagnosisModel {
  @Field(() => ToolHealthClassification, { nullable: true, description: 'What kind of failure (or WORKING) the diagnosis found.' })
  classification: ToolHealthClassification | null;
  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  code: ToolErrorCode | null;
  @Field(() => String, { nullable: true, description: 'What was observed, in words.' }) note: string | null;
  @Field({ description: 'Who wrote it: an admin, a diagnosis engine or a system component.' }) by: string;
  @Field({ description: 'When it happened.' }) at: Date;
}

@ObjectType('HistoryItem', { description: 'One change in the history of an entry (the history keeps the latest ones, newest last).' })
export class HistoryItemModel extends DiagnosisModel {
  @Field(() => ToolStatus, { description: 'The status the entry took.' }) status: ToolStatus;
  @Field(() => Date, { nullable: true, description: 'The recovery time expected at that point, if any.' }) recoveryAt: Date | null;
}

@ObjectType('Cooldown', { description: 'A cooldown of one error signature: no new diagnosis of that error until it ends.' })
export class CooldownModel {
  @Field({ description: 'A stable name for the error, e.g. "http-403".' }) errorSignature: string;
  @Field(() => String, {
    nullable: true,
    description: 'The user of a user-specific cooldown or note; null when it concerns everyone at the scope.',
  })
  userId: string | null;
  @Field({ description: 'When a diagnosis of this error may be spawned again: the end of the cooldown.' }) nextSpawnAllowedAt: Date;
  @Field(() => Int, { description: 'How many failures met the cooldown while it ran.' }) hits: number;
  @Field(() => ToolHealthClassification, { description: 'The classification that set or renewed the cooldown.' })
  lastClassification: ToolHealthClassification;
  @Field(() => Date, { nullable: true, description: 'When a failure last met the running cooldown; null if none has.' })
  lastTriggeredAt: Date | null;
  // Float: an explicit window may reach 30 days, past GraphQL Int's 2^31 ms (≈ 24.8 days).
  @Field(() => Float, { description: 'The length of the current cooldown window, in milliseconds.' }) windowMs: number;
}

@ObjectType('Pin', { description: 'An admin override of the status until an instant.' })
export class PinModel {
  @Field(() => PinStatus, { description: 'The status the pin holds: OK or DOWN.' }) status: PinStatus;
  @Field({ description: 'When it ends.' }) until: Date;
  @Field({ description: 'Why the admin pinned it.' }) reason: string;
  @Field({ description: 'Who wrote it: an admin, a diagnosis engine or a system component.' }) by: string;
  @Field({ description: 'When it happened.' }) at: Date;
}

@ObjectType('ToolHealth', { description: 'The stored health entry of one tool at one scope.' })
export class ToolHealthModel {
  @Field(() => ID, { description: "The entry's id (its scope, scope id and tool name, encoded)." }) id: string;
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' }) scope: Scope;
  @Field(() => String, { nullable: true, description: 'The id of the session, user, project or tenant; null for GLOBAL.' }) scopeId:
    string | null;
  @Field({ description: 'The tool, e.g. "jira_search".' }) toolName: string;
  @Field(() => String, { nullable: true, description: 'The tenant (organisation).' }) tenantId: string | null;
  @Field(() => ToolStatus, { description: 'Whether the tool is usable: OK, DEGRADED (works now and then) or DOWN.' }) status: ToolStatus;
  @Field({ description: 'Since when the entry has had its status.' }) since: Date;
  @Field(() => Date, { nullable: true, description: 'When the tool was last checked (diagnosed or probed).' }) lastCheckedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the tool is expected to work again, if known.' }) expectedRecoveryAt: Date | null;
  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  code: ToolErrorCode | null;
  @Field(() => Date, { nullable: true, description: 'When a failure was last reported for it.' }) lastFailureAt: Date | null;
  @Field(() => DiagnosisModel, { nullable: true, description: 'The latest diagnosis verdict, if any.' })
  lastDiagnosis: DiagnosisModel | null;
  @Field(() => [HistoryItemModel], {
    description: "The latest changes of the entry, oldest first (how many are kept is the tenant's history limit).",
  })
  history: HistoryItemModel[];
  @Field(() => [CooldownModel], { description: 'The cooldowns of the entry, one per error signature (and user).' })
  cooldowns: CooldownModel[];
  @Field(() => PinModel, { nullable: true, description: 'An admin pin in force on the entry, if any.' }) pin: PinModel | null;
  @Field(() => String, {
    nullable: true,
    description: "The tool's description as its client last sent it, so a departed client tool can still be listed.",
  })
  description: string | null;
  @Field(() => Int, { description: 'Grows by one with every write of the entry.' }) version: number;
  @Field({ description: 'When the entry was first written.' }) createdAt: Date;
  @Field({ description: 'When it was last written.' }) updatedAt: Date;
}
