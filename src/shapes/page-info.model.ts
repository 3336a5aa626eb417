import { Field, ObjectType } from '@nestjs/graphql';

/**
 * Relay's PageInfo (P87, P145). The side a page was asked from (first: after it; last: before it)
 * says whether more exists there; the other side has items whenever a cursor bounded the page.
 */
@ObjectType({
  description:
    'Where a page of a connection starts and ends; pass endCursor back as `after` for the next page, startCursor as `before` for the previous one.',
})
export class PageInfo {
  @Field({ description: 'Whether there are more items after this page (with last: whether it was asked for with `before`).' })
  hasNextPage: boolean;
  @Field({ description: 'Whether there are items before this page (with first: whether it was asked for with `after`).' })
  hasPreviousPage: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the first item of the page; on an empty page, the `before` given (null without one).',
  })
  startCursor: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The cursor of the last item of the page; on an empty page, the `after` given (null without one), so polling resumes there.',
  })
  endCursor: string | null;
}
