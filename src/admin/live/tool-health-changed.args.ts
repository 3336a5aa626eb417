import { ArgsType, Field } from '@nestjs/graphql';
import { IsEnum, IsOptional } from 'class-validator';
import { IsId } from '../../common/dto/health-key.dto';
import { Scope, ToolStatus } from '../models/enums.registration';

/** Filters of `toolHealthChanged`; each one given narrows the feed, none given means every event. */
@ArgsType()
export class ToolHealthChangedArgs {
  @Field(() => String, { nullable: true, description: 'Only events of this tool.' })
  @IsOptional()
  @IsId()
  toolName?: string | null;

  @Field(() => Scope, { nullable: true, description: 'Only events of documents at this scope.' })
  @IsOptional()
  @IsEnum(Scope)
  scope?: Scope | null;

  @Field(() => String, { nullable: true, description: 'Only events of documents with this scope id.' })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @Field(() => ToolStatus, { nullable: true, description: "Only events whose document's status after the write is this one." })
  @IsOptional()
  @IsEnum(ToolStatus)
  status?: ToolStatus | null;
}
