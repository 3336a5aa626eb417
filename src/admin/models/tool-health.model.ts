import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { PinStatus, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus } from './enums.registration';

@ObjectType('Diagnosis', { description: 'A verdict or a system write.' })
export class DiagnosisModel {
  @Field(() => ToolHealthClassification, { nullable: true }) classification: ToolHealthClassification | null;
  @Field(() => ToolErrorCode, { nullable: true }) code: ToolErrorCode | null;
  @Field(() => String, { nullable: true }) note: string | null;
  @Field() by: string;
  @Field() at: Date;
}

@ObjectType('HistoryItem', { description: 'One ring-buffer entry of the history, newest last (D12).' })
export class HistoryItemModel extends DiagnosisModel {
  @Field(() => ToolStatus) status: ToolStatus;
  @Field(() => Date, { nullable: true }) recoveryAt: Date | null;
}

@ObjectType('Cooldown', { description: 'A cooldown per error signature (§6).' })
export class CooldownModel {
  @Field() errorSignature: string;
  @Field(() => String, { nullable: true }) userId: string | null;
  @Field() nextSpawnAllowedAt: Date;
  @Field(() => Int) hits: number;
  @Field(() => ToolHealthClassification) lastClassification: ToolHealthClassification;
  @Field(() => Date, { nullable: true }) lastTriggeredAt: Date | null;
  // Float: an explicit window may reach 30 days, past GraphQL Int's 2^31 ms (≈ 24.8 days).
  @Field(() => Float) windowMs: number;
}

@ObjectType('Pin', { description: 'An admin override of the status until an instant (D4b).' })
export class PinModel {
  @Field(() => PinStatus) status: PinStatus;
  @Field() until: Date;
  @Field() reason: string;
  @Field() by: string;
  @Field() at: Date;
}

@ObjectType('ToolHealth', { description: 'The health document of one (scope, scopeId, toolName) (§5).' })
export class ToolHealthModel {
  @Field(() => ID) id: string;
  @Field(() => Scope) scope: Scope;
  @Field(() => String, { nullable: true }) scopeId: string | null;
  @Field() toolName: string;
  @Field(() => String, { nullable: true }) tenantId: string | null;
  @Field(() => ToolStatus) status: ToolStatus;
  @Field() since: Date;
  @Field(() => Date, { nullable: true }) lastCheckedAt: Date | null;
  @Field(() => Date, { nullable: true }) expectedRecoveryAt: Date | null;
  @Field(() => ToolErrorCode, { nullable: true }) code: ToolErrorCode | null;
  @Field(() => Date, { nullable: true }) lastFailureAt: Date | null;
  @Field(() => DiagnosisModel, { nullable: true }) lastDiagnosis: DiagnosisModel | null;
  @Field(() => [HistoryItemModel]) history: HistoryItemModel[];
  @Field(() => [CooldownModel]) cooldowns: CooldownModel[];
  @Field(() => PinModel, { nullable: true }) pin: PinModel | null;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field(() => Int) version: number;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}
