import { Field, InputType } from '@nestjs/graphql';
import { IsBoolean, IsEnum, IsOptional } from 'class-validator';
import { CallContextDto } from '../../common/dto/call-context.dto';
import { IsId } from '../../common/dto/health-key.dto';
import { Scope, ToolStatus } from '../models/enums.registration';

@InputType('ToolHealthFilter', { description: 'Every field optional; given fields must all match.' })
export class ToolHealthFilterInput {
  @Field(() => Scope, { nullable: true, description: 'Only entries of this scope.' })
  @IsOptional()
  @IsEnum(Scope)
  scope?: Scope | null;

  @Field(() => String, { nullable: true, description: 'GLOBAL entries have none: filter them with scope: GLOBAL' })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only entries of this tool.' })
  @IsOptional()
  @IsId()
  toolName?: string | null;

  @Field(() => ToolStatus, { nullable: true, description: 'the stored status' })
  @IsOptional()
  @IsEnum(ToolStatus)
  status?: ToolStatus | null;

  @Field(() => Boolean, { nullable: true, description: 'true: holds a running cooldown; false: holds none' })
  @IsOptional()
  @IsBoolean()
  hasActiveCooldown?: boolean | null;
}

/** The GraphQL name of the one context shape (P112); every field comes from CallContextDto. */
@InputType('CallContextInput', {
  description: 'Who calls: session, user, project and tenant, every level optional; absent levels are skipped.',
})
export class CallContextInput extends CallContextDto {}
