import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Scope } from '../../shapes/enums.registration';

@ObjectType('PurgeResult', { description: 'One batch of a bulk delete.' })
export class PurgeResultModel {
  @Field(() => Scope, { description: 'The scope whose entries were deleted.' }) scope: Scope;
  @Field({ description: 'Entries not written since this instant were deleted.' }) olderThan: Date;
  @Field(() => Int, { description: 'How many entries were deleted.' }) deleted: number;
  @Field({ description: 'More documents match: call again for the next batch' }) hasMore: boolean;
}
