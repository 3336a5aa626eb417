import { ArgsType, Field, Int } from '@nestjs/graphql';
import { DEFAULT_PAGE_SIZE, IsPageSize, MAX_PAGE_SIZE } from '../../shapes/page-size';

@ArgsType()
export class LimitArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `1 … ${MAX_PAGE_SIZE}` })
  @IsPageSize()
  limit: number;
}
