import { Field, ObjectType } from '@nestjs/graphql';
import { CascadeReason, Scope, ToolErrorCode, ToolStatus } from '../../shapes/enums.registration';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { MaintenanceSummaryModel } from '../maintenance/maintenance.graphql';

@ObjectType('CascadeMatch', { description: 'The entry that decided the effective status, reduced to what a reader needs to trust it.' })
export class CascadeMatchModel {
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' }) scope: Scope;
  @Field(() => String, { nullable: true, description: 'The id of the session, user, project or tenant; null for GLOBAL.' }) scopeId:
    string | null;
  @Field(() => String, { nullable: true, description: "The pin's author for a pin, else lastDiagnosis.by" }) by: string | null;
  @Field({ description: 'Since when the effective status holds' }) since: Date;
  @Field(() => Date, { nullable: true, description: "The pin's end for a pin, else expectedRecoveryAt" }) until: Date | null;
  @Field({ description: 'Whether an admin pin decides the entry right now.' }) pinned: boolean;
  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  code: ToolErrorCode | null;
}

@ObjectType('ShadowedEntry', { description: 'A wider entry with a problem or a pin that the winner hid (status as stored).' })
export class ShadowedEntryModel {
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' }) scope: Scope;
  @Field(() => String, { nullable: true, description: 'The id of the session, user, project or tenant; null for GLOBAL.' }) scopeId:
    string | null;
  @Field(() => ToolStatus, { description: 'The status of the hidden entry.' }) status: ToolStatus;
}

@ObjectType('CascadeTrace', { description: 'Like a feature flag evaluation reason: why the tool reads as it does.' })
export class CascadeTraceModel {
  @Field(() => CascadeReason, { description: 'Why the tool reads as it does: which rule decided.' }) reason: CascadeReason;
  @Field(() => CascadeMatchModel, { nullable: true, description: 'Null for the default OK' }) matched: CascadeMatchModel | null;
  @Field(() => [ShadowedEntryModel], { description: 'Wider problem entries that the deciding entry hid.' }) shadowed: ShadowedEntryModel[];
  @Field(() => [String], {
    description: "The call evaluation's steps in words: its reach (bounded by a pin), what governs it, maintenance in reach, back-at.",
  })
  why: string[];
}

@ObjectType('CascadeEntry', { description: 'One stored entry of the context cascade.' })
export class CascadeEntryModel {
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' }) scope: Scope;
  @Field(() => String, { nullable: true, description: 'The id of the session, user, project or tenant; null for GLOBAL.' }) scopeId:
    string | null;
  @Field(() => ToolStatus, { description: 'The stored status of the entry.' }) status: ToolStatus;
  @Field({ description: 'DOWN or DEGRADED, but its expected recovery time has passed: the next call tries the tool again.' })
  retesting: boolean;
  @Field({ description: 'Whether an admin pin is in force on the entry.' }) pinned: boolean;
}

@ObjectType('EffectiveHealth', { description: "The effective status of a tool for a caller's context, and the reason for it." })
export class EffectiveHealthModel {
  @Field({ description: 'The tool, e.g. "jira_search".' }) toolName: string;
  @Field(() => ToolStatus, { description: 'The effective status in this context.' }) status: ToolStatus;
  @Field({ description: 'DOWN or DEGRADED, but its expected recovery time has passed: the next call tries the tool again.' })
  retesting: boolean;
  @Field(() => CascadeReason, { description: 'Which rule decided: an entry, a pin, or nothing known (OK by default).' })
  reason: CascadeReason;
  @Field(() => ToolHealthView, { nullable: true, description: 'The entry that decided; null = default OK' })
  winner: ToolHealthView | null;
  @Field(() => [CascadeEntryModel], { description: 'Stored entries of the cascade, narrow to wide' }) considered: CascadeEntryModel[];
  @Field(() => CascadeTraceModel, {
    description: 'Why the tool reads as it does: the entry that decided, by whom, since and until when, and what it hid.',
  })
  trace: CascadeTraceModel;
  @Field(() => Date, {
    nullable: true,
    description:
      'When the tool is expected back: the first instant nothing in reach blocks it — outages, windows in force and the windows that follow without a gap; null when nothing blocks or when a block has no known end (see blocked).',
  })
  backAt: Date | null;
  @Field({ description: 'Whether something in reach blocks the call now (a DOWN entry or pin, a window in force).' }) blocked: boolean;
  @Field(() => MaintenanceSummaryModel, {
    nullable: true,
    description: 'The maintenance window in force for this tool and caller, and the next one coming; null when none.',
  })
  maintenance: MaintenanceSummaryModel | null;
}
