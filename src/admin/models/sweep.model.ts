import { Field, Int, ObjectType } from '@nestjs/graphql';
import { CooldownModel, ToolHealthModel } from './tool-health.model';

@ObjectType('SweepResult', { description: 'What a sweep removed.' })
export class SweepResultModel {
  @Field(() => Int, { description: 'documents that had entries removed' }) documents: number;
  @Field(() => Int, { description: 'cooldown entries removed' }) removed: number;
}

@ObjectType('SweepCandidate', { description: 'An entry holding cooldowns the next sweep deletes.' })
export class SweepCandidateModel {
  @Field(() => ToolHealthModel, { description: 'The entry.' }) toolHealth: ToolHealthModel;
  @Field(() => [CooldownModel], { description: 'the entries expired longer than the grace period' }) cooldowns: CooldownModel[];
}
