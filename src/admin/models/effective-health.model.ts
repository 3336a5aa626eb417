import { Field, ObjectType } from '@nestjs/graphql';
import { CascadeReason, Scope, ToolErrorCode, ToolStatus } from './enums.registration';
import { ToolHealthModel } from './tool-health.model';
import { MaintenanceSummaryModel } from '../../maintenance/maintenance.graphql';

@ObjectType('CascadeMatch', { description: 'The entry that decided the effective status, reduced to what a reader needs to trust it.' })
export class CascadeMatchModel {
  @Field(() => Scope) scope: Scope;
  @Field(() => String, { nullable: true }) scopeId: string | null;
  @Field(() => String, { nullable: true, description: "the pin's author for a pin, else lastDiagnosis.by" }) by: string | null;
  @Field({ description: 'since when the effective status holds' }) since: Date;
  @Field(() => Date, { nullable: true, description: "the pin's end for a pin, else expectedRecoveryAt" }) until: Date | null;
  @Field() pinned: boolean;
  @Field(() => ToolErrorCode, { nullable: true }) code: ToolErrorCode | null;
}

@ObjectType('ShadowedEntry', { description: 'A wider entry with a problem or a pin that the winner hid (status as stored).' })
export class ShadowedEntryModel {
  @Field(() => Scope) scope: Scope;
  @Field(() => String, { nullable: true }) scopeId: string | null;
  @Field(() => ToolStatus) status: ToolStatus;
}

@ObjectType('CascadeTrace', { description: 'Like a feature flag evaluation reason: why the tool reads as it does.' })
export class CascadeTraceModel {
  @Field(() => CascadeReason) reason: CascadeReason;
  @Field(() => CascadeMatchModel, { nullable: true, description: 'null for the default OK' }) matched: CascadeMatchModel | null;
  @Field(() => [ShadowedEntryModel]) shadowed: ShadowedEntryModel[];
}

@ObjectType('CascadeEntry', { description: 'One stored entry of the context cascade.' })
export class CascadeEntryModel {
  @Field(() => Scope) scope: Scope;
  @Field(() => String, { nullable: true }) scopeId: string | null;
  @Field(() => ToolStatus) status: ToolStatus;
  @Field({ description: 'DOWN/DEGRADED whose expected recovery has passed (D5)' }) retesting: boolean;
  @Field({ description: 'a pin in force (D4b)' }) pinned: boolean;
}

@ObjectType('EffectiveHealth', { description: 'The effective status of a tool for a context (§4) and the reason for it.' })
export class EffectiveHealthModel {
  @Field() toolName: string;
  @Field(() => ToolStatus) status: ToolStatus;
  @Field() retesting: boolean;
  @Field(() => CascadeReason) reason: CascadeReason;
  @Field(() => ToolHealthModel, { nullable: true, description: 'the entry that decided; null = default OK' }) winner: ToolHealthModel | null;
  @Field(() => [CascadeEntryModel], { description: 'stored entries of the cascade, narrow to wide' }) considered: CascadeEntryModel[];
  @Field(() => CascadeTraceModel) trace: CascadeTraceModel;
  @Field(() => MaintenanceSummaryModel, { nullable: true, description: 'issue 16: the maintenance window in force and the next one coming; null when none' }) maintenance: MaintenanceSummaryModel | null;
}
