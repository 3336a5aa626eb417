import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Scope, ToolStatus } from './enums.registration';

@ObjectType('StatusCount')
export class StatusCountModel {
  @Field(() => ToolStatus) status: ToolStatus;
  @Field(() => Int) count: number;
}

@ObjectType('ScopeOverview')
export class ScopeOverviewModel {
  @Field(() => Scope) scope: Scope;
  @Field(() => Int) total: number;
  @Field(() => [StatusCountModel], { description: 'every status, zeros included' }) byStatus: StatusCountModel[];
}

@ObjectType('ToolOverview', { description: 'Every stored entry of one tool, counted by status and by scope (stored status, pins not applied).' })
export class ToolOverviewModel {
  @Field() toolName: string;
  @Field(() => Int) total: number;
  @Field(() => [StatusCountModel], { description: 'every status, zeros included' }) byStatus: StatusCountModel[];
  @Field(() => [ScopeOverviewModel], { description: 'every scope, narrow to wide, zeros included' }) byScope: ScopeOverviewModel[];
}
