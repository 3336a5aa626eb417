import { Field, InputType } from '@nestjs/graphql';
import { IsBoolean, IsEnum, IsOptional } from 'class-validator';
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

/** The caller's context (D6): every level optional, absent levels are skipped by the cascade. */
@InputType('CallContextInput', {
  description: 'Who calls: session, user, project and tenant, every level optional; absent levels are skipped.',
})
export class CallContextInput {
  @Field(() => String, { nullable: true, description: 'The session (conversation).' })
  @IsOptional()
  @IsId()
  sessionId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The user of a user-specific cooldown or note; null when it concerns everyone at the scope.',
  })
  @IsOptional()
  @IsId()
  userId?: string | null;

  @Field(() => String, { nullable: true, description: 'The project.' })
  @IsOptional()
  @IsId()
  projectId?: string | null;

  @Field(() => String, { nullable: true, description: 'The tenant (organisation).' })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}
