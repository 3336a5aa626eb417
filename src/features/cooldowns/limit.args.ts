import { ArgsType, Field, Int } from '@nestjs/graphql';
import { IsInt, Max, Min } from 'class-validator';

@ArgsType()
export class LimitArgs {
  @Field(() => Int, { defaultValue: 100, description: '1 … 500' })
  @IsInt()
  @Min(1)
  @Max(500)
  limit: number;
}
