import { Field, InputType } from '@nestjs/graphql';
import { IsEnum, IsOptional, Matches } from 'class-validator';
import { ID_MESSAGE } from '../../common/dto/health-key.dto';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope } from '../models/enums.registration';

/** The key of a health document (§5); GLOBAL has no scopeId, every other scope needs one (D6). */
@InputType('HealthKeyInput')
export class HealthKeyInput {
  @Field(() => Scope)
  @IsEnum(Scope)
  scope: Scope;

  @Field(() => String, { nullable: true, description: 'null for GLOBAL, required otherwise' })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `scopeId ${ID_MESSAGE}` })
  scopeId?: string | null;

  @Field()
  @Matches(ID_PATTERN, { message: `toolName ${ID_MESSAGE}` })
  toolName: string;
}
