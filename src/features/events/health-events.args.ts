import { ArgsType, Field, Int } from '@nestjs/graphql';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { DEFAULT_PAGE_SIZE, IsPageSize, MAX_PAGE_SIZE } from '../../shapes/page-size';

export const EVENTS_PAGE_DEFAULT = DEFAULT_PAGE_SIZE;

@ArgsType()
export class HealthEventsArgs {
  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page; omit to start at the oldest event.' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  after?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size forward from \`after\`, 1 … ${MAX_PAGE_SIZE}; ${EVENTS_PAGE_DEFAULT} when neither first nor last is given.`,
  })
  @IsOptional()
  @IsPageSize()
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The startCursor of the next page: the page ends before it.' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  before?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size backward from \`before\` (or from the newest event), 1 … ${MAX_PAGE_SIZE}; not with first.`,
  })
  @IsOptional()
  @IsPageSize()
  last?: number | null;

  @Field(() => String, {
    nullable: true,
    description: "Only the events of this entry (its docId, the ToolHealth's id); all entries' when absent.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  docId?: string | null;
}
