import { Field, ObjectType } from '@nestjs/graphql';

/**
 * Relay's PageInfo (P87). Pages go forward only (first/after); hasPreviousPage says whether the
 * page was asked for after a cursor, i.e. whether there are items before it, as Relay allows for
 * forward pagination.
 */
@ObjectType({ description: 'Where a page of a connection starts and ends; pass endCursor back as `after` for the next page.' })
export class PageInfo {
  @Field({ description: 'Whether there are more items after this page.' }) hasNextPage: boolean;
  @Field({ description: 'Whether there are items before this page (it was asked for with `after`).' }) hasPreviousPage: boolean;
  @Field(() => String, { nullable: true, description: 'The cursor of the first item of the page; null when the page is empty.' })
  startCursor: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The cursor of the last item of the page; on an empty page, the `after` given (null without one), so polling resumes there.',
  })
  endCursor: string | null;
}
