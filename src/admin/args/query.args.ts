import { ArgsType, Field, Int, PickType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { HealthKeyDto, IsId } from '../../common/dto/health-key.dto';
import { CallContextInput, ToolHealthFilterInput } from '../inputs/list.input';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 500;

@ArgsType()
export class ToolHealthsArgs {
  @Field(() => ToolHealthFilterInput, { nullable: true, description: 'Which entries to list; absent = all.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ToolHealthFilterInput)
  filter?: ToolHealthFilterInput | null;

  @Field(() => Int, { defaultValue: PAGE_DEFAULT, description: `page size, 1 … ${PAGE_MAX}` })
  @IsInt()
  @Min(1)
  @Max(PAGE_MAX)
  first: number;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1400)
  after?: string | null;
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

@ArgsType()
export class LimitArgs {
  @Field(() => Int, { defaultValue: 100, description: '1 … 500' })
  @IsInt()
  @Min(1)
  @Max(500)
  limit: number;
}

@ArgsType()
export class HealthEventsArgs {
  @Field(() => String, { nullable: true, description: 'endCursor of the previous page; omit to start at the oldest event' })
  @IsOptional()
  @IsString()
  @MaxLength(1200)
  after?: string | null;

  @Field(() => Int, { defaultValue: 100, description: '1 … 500' })
  @IsInt()
  @Min(1)
  @Max(500)
  first: number;
}

@ArgsType()
export class TenantIdArgs {
  @Field({ description: 'The tenant (organisation).' })
  @IsId()
  tenantId: string;
}
