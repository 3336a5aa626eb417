import { ArgsType, Field } from '@nestjs/graphql';
import { IsEnum, IsOptional, Matches } from 'class-validator';
import { ID_MESSAGE } from '../../common/dto/health-key.dto';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope, ToolStatus } from '../models/enums.registration';

/** Filters of `toolHealthChanged`; each one given narrows the feed, none given means every event. */
@ArgsType()
export class ToolHealthChangedArgs {
  @Field(() => String, { nullable: true, description: 'Only events of this tool.' })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `toolName ${ID_MESSAGE}` })
  toolName?: string | null;

  @Field(() => Scope, { nullable: true, description: 'Only events of documents at this scope.' })
  @IsOptional()
  @IsEnum(Scope)
  scope?: Scope | null;

  @Field(() => String, { nullable: true, description: 'Only events of documents with this scope id.' })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `scopeId ${ID_MESSAGE}` })
  scopeId?: string | null;

  @Field(() => ToolStatus, { nullable: true, description: "Only events whose document's status after the write is this one." })
  @IsOptional()
  @IsEnum(ToolStatus)
  status?: ToolStatus | null;
}
