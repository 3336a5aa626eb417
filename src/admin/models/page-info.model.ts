import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'Where a page of a connection ends; pass endCursor back as `after` for the next one.' })
export class PageInfo {
  @Field() hasNextPage: boolean;
  @Field(() => String, { nullable: true, description: 'null when the page is empty (and no `after` was given)' }) endCursor: string | null;
}
