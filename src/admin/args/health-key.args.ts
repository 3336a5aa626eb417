import { ArgsType, Field } from '@nestjs/graphql';
import { IsEnum, IsOptional } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { Scope } from '../models/enums.registration';

@ArgsType()
export class HealthKeyArgs {
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' })
  @IsEnum(Scope)
  scope: Scope;

  @Field(() => String, { nullable: true, description: 'null for GLOBAL' })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @Field({ description: 'The tool, e.g. "jira_search".' })
  @IsId()
  toolName: string;
}
