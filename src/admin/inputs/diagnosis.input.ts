import { Field, Float, InputType } from '@nestjs/graphql';
import { IsDate, IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { ToolErrorCode, ToolHealthClassification } from '../models/enums.registration';
import { MAX_DURATION_MS } from './cooldown.input';
import { HealthKeyInput } from './health-key.input';

/** §7 third row: a verdict, applied per D11. */
@InputType('RecordDiagnosisInput', { description: 'The entry and the diagnosis verdict.' })
export class RecordDiagnosisInput extends HealthKeyInput {
  @Field(() => ToolHealthClassification, { description: 'What kind of failure (or WORKING) the diagnosis found.' })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @Field(() => String, { nullable: true, description: 'What was observed, in words.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'who diagnosed (e.g. agrajag-7f3c); default "admin:<key name>"' })
  @IsOptional()
  @IsId()
  by?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the tool is expected to work again, if known.' })
  @IsOptional()
  @IsDate()
  expectedRecoveryAt?: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'The user of a user-specific cooldown or note; null when it concerns everyone at the scope.',
  })
  @IsOptional()
  @IsId()
  userId?: string | null;

  @Field(() => String, { nullable: true, description: 'A stable name for the error, e.g. "http-403".' })
  @IsOptional()
  @IsId()
  errorSignature?: string | null;

  @Field(() => Float, { nullable: true, description: 'explicit cooldown window in ms (1000 … 30 days)' })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(MAX_DURATION_MS)
  durationMs?: number | null;

  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode | null;

  @Field(() => String, { nullable: true, description: 'The tenant (organisation).' })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

/** tool_health_clear: back to OK, every active cooldown of the entry ended. */
@InputType('ClearToolHealthInput', { description: 'The entry to reset to OK.' })
export class ClearToolHealthInput extends HealthKeyInput {
  @Field(() => String, { nullable: true, description: 'What was observed, in words.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string | null;
}
