import { Field, InputType } from '@nestjs/graphql';
import { IsDate, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { ToolErrorCode } from '../models/enums.registration';
import { HealthKeyInput } from './health-key.input';

/** §7 first row, replayed by an admin: the same write path the dispatch layer uses. */
@InputType({ isAbstract: true })
export abstract class SystemWriteInput extends HealthKeyInput {
  @Field(() => String, { nullable: true, description: 'stored as by: "system:<source>"; default "admin:<key name>"' })
  @IsOptional()
  @IsId()
  source?: string | null;

  @Field(() => String, { nullable: true, description: 'What was observed, in words.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'The tenant the entry belongs to, for its history limit.' })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

@InputType('MarkUnavailableInput', { description: 'The entry to mark DOWN and what was seen.' })
export class MarkUnavailableInput extends SystemWriteInput {
  @Field(() => ToolErrorCode, { description: 'What the dispatch saw when the tool failed, if anything.' })
  @IsEnum(ToolErrorCode)
  code: ToolErrorCode;

  @Field(() => Date, { nullable: true, description: 'when it went down; default now' })
  @IsOptional()
  @IsDate()
  since?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the tool is expected to work again, if known.' })
  @IsOptional()
  @IsDate()
  expectedRecoveryAt?: Date | null;
}

@InputType('MarkIntermittentInput', { description: 'The entry to mark DEGRADED and what was seen.' })
export class MarkIntermittentInput extends SystemWriteInput {
  @Field(() => ToolErrorCode, { nullable: true, description: 'What the dispatch saw when the tool failed, if anything.' })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode | null;

  @Field(() => Date, { nullable: true, description: 'When the tool is expected to work again, if known.' })
  @IsOptional()
  @IsDate()
  expectedRecoveryAt?: Date | null;
}

@InputType('MarkAvailableInput', { description: 'The entry to mark OK again.' })
export class MarkAvailableInput extends SystemWriteInput {}
