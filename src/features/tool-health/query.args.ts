import { ArgsType, Field, Int, PickType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { HealthKeyDto } from '../../shapes/health-key.dto';
import { CallContextInput, ToolHealthFilterInput } from './list.input';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 500;

@ArgsType()
export class ToolHealthsArgs {
  @Field(() => ToolHealthFilterInput, { nullable: true, description: 'Which entries to list; absent = all.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ToolHealthFilterInput)
  filter?: ToolHealthFilterInput | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size forward from \`after\`, 1 … ${PAGE_MAX}; ${PAGE_DEFAULT} when neither first nor last is given.`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(PAGE_MAX)
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page: the page starts after it.' })
  @IsOptional()
  @IsString()
  @MaxLength(1400)
  after?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size backward from \`before\` (or from the end), 1 … ${PAGE_MAX}; not with first.`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(PAGE_MAX)
  last?: number | null;

  @Field(() => String, { nullable: true, description: 'The startCursor of the next page: the page ends before it.' })
  @IsOptional()
  @IsString()
  @MaxLength(1400)
  before?: string | null;
}

/** The tool of the key shape (P112). */
@ArgsType()
export class ToolNameArgs extends PickType(HealthKeyDto, ['toolName'] as const, ArgsType) {}

@ArgsType()
export class EffectiveHealthArgs extends ToolNameArgs {
  @Field(() => CallContextInput, { nullable: true, description: 'Who calls; absent levels are skipped.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextInput)
  context?: CallContextInput | null;
}
