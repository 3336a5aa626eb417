import { ArgsType, Field } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CallContextInput } from '../tool-health/list.input';
import { ToolNameArgs } from '../tool-health/query.args';
import { DEFAULT_TIME_ZONE, MAX_DESCRIPTION_LENGTH, MAX_TIME_ZONE_LENGTH } from './annotate.dto';

/** One tool of a manifest, the caller's context and time zone, as `POST /v1/manifest/annotate` takes them (P171). */
@ArgsType()
export class AnnotatedToolArgs extends ToolNameArgs {
  @Field(() => String, { nullable: true, description: `The tool's description as the LLM would read it; "" when absent.` })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @Field(() => CallContextInput, { nullable: true, description: 'Who calls; absent levels are skipped.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextInput)
  context?: CallContextInput | null;

  @Field(() => String, { nullable: true, description: `IANA time zone for the HH:MM of the suffix; ${DEFAULT_TIME_ZONE} when absent.` })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TIME_ZONE_LENGTH)
  timeZone?: string | null;
}
