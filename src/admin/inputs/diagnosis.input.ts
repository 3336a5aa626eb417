import { Field, Float, InputType } from '@nestjs/graphql';
import { IsDate, IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { ToolErrorCode, ToolHealthClassification } from '../models/enums.registration';
import { MAX_DURATION_MS } from './cooldown.input';
import { HealthKeyInput } from './health-key.input';

/** §7 third row: a verdict, applied per D11. */
@InputType('RecordDiagnosisInput')
export class RecordDiagnosisInput extends HealthKeyInput {
  @Field(() => ToolHealthClassification)
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'who diagnosed (e.g. agrajag-7f3c); default "admin:<key name>"' })
  @IsOptional()
  @IsId()
  by?: string | null;

  @Field(() => Date, { nullable: true })
  @IsOptional()
  @IsDate()
  expectedRecoveryAt?: Date | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsId()
  userId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsId()
  errorSignature?: string | null;

  @Field(() => Float, { nullable: true, description: 'explicit cooldown window in ms (1000 … 30 days)' })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(MAX_DURATION_MS)
  durationMs?: number | null;

  @Field(() => ToolErrorCode, { nullable: true })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

/** tool_health_clear: back to OK, every active cooldown of the entry ended. */
@InputType('ClearToolHealthInput')
export class ClearToolHealthInput extends HealthKeyInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string | null;
}
