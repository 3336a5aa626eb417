import { Field, InputType } from '@nestjs/graphql';
import { IsEnum, IsOptional } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { Scope } from '../models/enums.registration';

/** The key of a health document (§5); GLOBAL has no scopeId, every other scope needs one (D6). */
@InputType('HealthKeyInput', { description: 'One entry: a scope, its id and a tool name.' })
export class HealthKeyInput {
  @Field(() => Scope, { description: 'Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).' })
  @IsEnum(Scope)
  scope: Scope;

  @Field(() => String, { nullable: true, description: 'null for GLOBAL, required otherwise' })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @Field({ description: 'The tool, e.g. "jira_search".' })
  @IsId()
  toolName: string;
}
