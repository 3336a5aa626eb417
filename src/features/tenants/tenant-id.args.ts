import { ArgsType, Field } from '@nestjs/graphql';
import { IsId } from '../../shapes/health-key.dto';

@ArgsType()
export class TenantIdArgs {
  @Field({ description: 'The tenant (organisation).' })
  @IsId()
  tenantId: string;
}
