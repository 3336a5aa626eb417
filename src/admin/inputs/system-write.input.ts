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

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'the tenant the key belongs to, for its history limit (D12)' })
  @IsOptional()
  @IsId()
  tenantId?: string | null;
}

@InputType('MarkUnavailableInput')
export class MarkUnavailableInput extends SystemWriteInput {
  @Field(() => ToolErrorCode)
  @IsEnum(ToolErrorCode)
  code: ToolErrorCode;

  @Field(() => Date, { nullable: true, description: 'when it went down; default now' })
  @IsOptional()
  @IsDate()
  since?: Date | null;

  @Field(() => Date, { nullable: true })
  @IsOptional()
  @IsDate()
  expectedRecoveryAt?: Date | null;
}

@InputType('MarkIntermittentInput')
export class MarkIntermittentInput extends SystemWriteInput {
  @Field(() => ToolErrorCode, { nullable: true })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode | null;

  @Field(() => Date, { nullable: true })
  @IsOptional()
  @IsDate()
  expectedRecoveryAt?: Date | null;
}

@InputType('MarkAvailableInput')
export class MarkAvailableInput extends SystemWriteInput {}
