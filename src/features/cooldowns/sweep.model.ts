import { Field, ObjectType } from '@nestjs/graphql';
import { CooldownView, ToolHealthView } from '../../shapes/tool-health.view';

@ObjectType('SweepCandidate', { description: 'An entry holding cooldowns the next sweep deletes.' })
export class SweepCandidateModel {
  @Field(() => ToolHealthView, { description: 'The entry.' }) toolHealth: ToolHealthView;
  @Field(() => [CooldownView], { description: 'The entries expired longer than the grace period' }) cooldowns: CooldownView[];
}
