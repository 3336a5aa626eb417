import { ArgsType, Field, Int } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const EVENTS_PAGE_DEFAULT = 100;

@ArgsType()
export class HealthEventsArgs {
  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page; omit to start at the oldest event.' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  after?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size forward from \`after\`, 1 … 500; ${EVENTS_PAGE_DEFAULT} when neither first nor last is given.`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The startCursor of the next page: the page ends before it.' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  before?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Page size backward from `before` (or from the newest event), 1 … 500; not with first.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
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
