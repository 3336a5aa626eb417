import { Field, InputType, Int } from '@nestjs/graphql';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { IsId } from '../../shapes/health-key.dto';

@InputType('SetTenantHistoryLimitInput', { description: 'A tenant and its new history limit.' })
export class SetTenantHistoryLimitInput {
  @Field({ description: 'The tenant (organisation).' })
  @IsId()
  tenantId: string;

  @Field(() => Int, { nullable: true, description: 'History items each entry keeps, 1 … 1000; null = back to the default.' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsInt()
  @Min(1)
  @Max(1000)
  historyLimit: number | null;
}
