import { ArgsType, Field } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsEnum, IsOptional, ValidateNested } from 'class-validator';
import { IdField } from '../../shapes/health-key.dto';
import { ToolErrorCode, ToolHealthClassification } from '../../shapes/enums.registration';
import { CallContextInput } from '../tool-health/list.input';

/** A failure report as the dispatcher would send it, for a check that writes nothing (P176). */
@ArgsType()
export class FailureCheckArgs {
  @IdField('The tool, e.g. "jira_search".', { example: 'jira_search' })
  toolName: string;

  @Field(() => CallContextInput, { nullable: true, description: 'Who calls; absent levels are skipped.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextInput)
  context?: CallContextInput | null;

  @IdField('A stable name for the error, e.g. the HTTP status.', { example: 'http-502' })
  errorSignature: string;

  @Field(() => ToolErrorCode, { defaultValue: ToolErrorCode.BACKEND_FAILED, description: 'What the dispatch would have seen.' })
  @IsEnum(ToolErrorCode)
  code: ToolErrorCode;

  @Field(() => ToolHealthClassification, {
    nullable: true,
    description: 'What the synchronous checker would already know; none when absent.',
  })
  @IsOptional()
  @IsEnum(ToolHealthClassification)
  classification?: ToolHealthClassification | null;
}
