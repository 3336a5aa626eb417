import { Field, Float, InputType } from '@nestjs/graphql';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { ToolHealthClassification } from '../models/enums.registration';
import { HealthKeyInput } from './health-key.input';

export const MAX_DURATION_MS = 30 * 24 * 3600_000;

/** §7 second row: setCooldown(scope, key, signature, classification, duration). */
@InputType('SetCooldownInput')
export class SetCooldownInput extends HealthKeyInput {
  @Field()
  @IsId()
  errorSignature: string;

  @Field(() => ToolHealthClassification, { description: 'a failure class (not WORKING)' })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @Field(() => Float, { nullable: true, description: 'explicit window in ms (1000 … 30 days); wins over the class default (D9)' })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(MAX_DURATION_MS)
  durationMs?: number | null;

  @Field(() => String, { nullable: true, description: 'only for a user-specific cooldown (USER_PERMISSION)' })
  @IsOptional()
  @IsId()
  userId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

/** Admin repair: forget one cooldown entirely, ladder included. */
@InputType('ClearCooldownInput')
export class ClearCooldownInput extends HealthKeyInput {
  @Field()
  @IsId()
  errorSignature: string;

  @Field(() => String, { nullable: true, description: 'null = the scope-wide entry' })
  @IsOptional()
  @IsId()
  userId?: string | null;
}
