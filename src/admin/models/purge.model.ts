import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Scope } from './enums.registration';

@ObjectType('PurgeResult', { description: 'One batch of a bulk hard delete (D14).' })
export class PurgeResultModel {
  @Field(() => Scope) scope: Scope;
  @Field() olderThan: Date;
  @Field(() => Int) deleted: number;
  @Field({ description: 'more documents match: call again for the next batch' }) hasMore: boolean;
}
