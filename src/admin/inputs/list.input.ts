import { Field, InputType } from '@nestjs/graphql';
import { IsBoolean, IsEnum, IsOptional, Matches } from 'class-validator';
import { ID_MESSAGE } from '../../common/dto/health-key.dto';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope, ToolStatus } from '../models/enums.registration';

@InputType('ToolHealthFilter', { description: 'Every field optional; given fields must all match.' })
export class ToolHealthFilterInput {
  @Field(() => Scope, { nullable: true })
  @IsOptional()
  @IsEnum(Scope)
  scope?: Scope | null;

  @Field(() => String, { nullable: true, description: 'GLOBAL entries have none: filter them with scope: GLOBAL' })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `scopeId ${ID_MESSAGE}` })
  scopeId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `toolName ${ID_MESSAGE}` })
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
@InputType('CallContextInput')
export class CallContextInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `sessionId ${ID_MESSAGE}` })
  sessionId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `userId ${ID_MESSAGE}` })
  userId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `projectId ${ID_MESSAGE}` })
  projectId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `tenantId ${ID_MESSAGE}` })
  tenantId?: string | null;
}
