import { Field, Int, ObjectType } from '@nestjs/graphql';
import { CooldownModel, ToolHealthModel } from './tool-health.model';

@ObjectType('SweepResult')
export class SweepResultModel {
  @Field(() => Int, { description: 'documents that had entries removed' }) documents: number;
  @Field(() => Int, { description: 'cooldown entries removed' }) removed: number;
}

@ObjectType('SweepCandidate', { description: 'A document holding cooldown entries the next sweep deletes (D9).' })
export class SweepCandidateModel {
  @Field(() => ToolHealthModel) toolHealth: ToolHealthModel;
  @Field(() => [CooldownModel], { description: 'the entries expired longer than the grace period' }) cooldowns: CooldownModel[];
}
