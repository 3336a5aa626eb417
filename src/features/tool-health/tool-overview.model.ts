import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Scope, ToolStatus } from '../../shapes/enums.registration';

@ObjectType('StatusCount', { description: 'How many entries have one status.' })
export class StatusCountModel {
  @Field(() => ToolStatus, { description: 'The status counted.' }) status: ToolStatus;
  @Field(() => Int, { description: 'How many entries have it.' }) count: number;
}

@ObjectType('ScopeOverview', { description: "A tool's entries at one scope, counted by status." })
export class ScopeOverviewModel {
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' }) scope: Scope;
  @Field(() => Int, { description: 'How many entries the tool has at this scope.' }) total: number;
  @Field(() => [StatusCountModel], { description: 'Every status, zeros included' }) byStatus: StatusCountModel[];
}

@ObjectType('ToolOverview', {
  description: 'Every stored entry of one tool, counted by status and by scope (stored status, pins not applied).',
})
export class ToolOverviewModel {
  @Field({ description: 'The tool, e.g. "jira_search".' }) toolName: string;
  @Field(() => Int, { description: 'How many entries the tool has at all scopes.' }) total: number;
  @Field(() => [StatusCountModel], { description: 'Every status, zeros included' }) byStatus: StatusCountModel[];
  @Field(() => [ScopeOverviewModel], { description: 'Every scope, narrow to wide, zeros included' }) byScope: ScopeOverviewModel[];
}
