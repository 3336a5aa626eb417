import { Field, Float, InputType } from '@nestjs/graphql';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { MAX_WINDOW_MS, MIN_WINDOW_MS } from '../../domain/cooldown-window';
import { ToolHealthClassification } from '../models/enums.registration';
import { HealthKeyInput } from './health-key.input';

export const MAX_DURATION_MS = 30 * 24 * 3600_000;

/** §7 second row: setCooldown(scope, key, signature, classification, duration). */
@InputType('SetCooldownInput', {
  description: 'The entry, the error signature and classification of the cooldown, and optionally its window.',
})
export class SetCooldownInput extends HealthKeyInput {
  @Field({ description: 'A stable name for the error, e.g. "http-403".' })
  @IsId()
  errorSignature: string;

  @Field(() => ToolHealthClassification, { description: 'a failure class (not WORKING)' })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @Field(() => Float, {
    nullable: true,
    description: "The window in milliseconds (1000 … 30 days); when absent, the classification's default.",
  })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(MAX_DURATION_MS)
  durationMs?: number | null;

  @Field(() => String, { nullable: true, description: 'only for a user-specific cooldown (USER_PERMISSION)' })
  @IsOptional()
  @IsId()
  userId?: string | null;

  @Field(() => String, { nullable: true, description: 'The tenant (organisation).' })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

/** Admin repair: forget one cooldown entirely, ladder included. */
@InputType('ClearCooldownInput', { description: 'The entry and the cooldown to forget.' })
export class ClearCooldownInput extends HealthKeyInput {
  @Field({ description: 'A stable name for the error, e.g. "http-403".' })
  @IsId()
  errorSignature: string;

  @Field(() => String, { nullable: true, description: 'null = the scope-wide entry' })
  @IsOptional()
  @IsId()
  userId?: string | null;
}

/** An admin changes one cooldown's window without restarting it (P85). */
@InputType('ChangeCooldownWindowInput', { description: 'Which cooldown gets a new window, and the window.' })
export class ChangeCooldownWindowInput extends HealthKeyInput {
  @Field({ description: 'The error signature of the cooldown, e.g. "http-403".' })
  @IsId()
  errorSignature: string;

  @Field(() => String, { nullable: true, description: 'The user of a user-specific cooldown; null or absent for the scope-wide one.' })
  @IsOptional()
  @IsId()
  userId?: string | null;

  @Field(() => Float, {
    description:
      'The new window in milliseconds (1000 … 30 days). A running cooldown now ends at its start plus this window, or at once if that has passed; later repetitions climb from it.',
  })
  @IsInt()
  @Min(MIN_WINDOW_MS)
  @Max(MAX_WINDOW_MS)
  windowMs: number;
}
