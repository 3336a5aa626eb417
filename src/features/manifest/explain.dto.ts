import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IANA_TIME_ZONE } from '../../shapes/request-formats';
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { CallContextDto } from '../../shapes/call-context.dto';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { DEFAULT_TIME_ZONE, MAX_TIME_ZONE_LENGTH } from './annotate.dto';
import { CascadeTraceView } from '../../shapes/cascade-trace.view';

/** Longest name the LLM may have called that explain still answers (it is echoed back). */
export const MAX_EXPLAIN_NAME_LENGTH = 1000;

/** The dispatcher could not dispatch a call and asks what to tell the LLM (D16). */
export class ExplainToolDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_EXPLAIN_NAME_LENGTH,
    example: 'client_file_read',
    description:
      'the name the LLM called. Any text: a name outside the tool-name character set can have no health entry and is answered without a lookup',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_EXPLAIN_NAME_LENGTH)
  toolName: string;

  @ApiPropertyOptional({ nullable: true, type: CallContextDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextDto)
  context?: CallContextDto;

  @ApiProperty({ description: 'whether any source of the registry serves the name right now' })
  @IsBoolean()
  registryKnows: boolean;

  @ApiPropertyOptional({
    nullable: true,
    maxLength: MAX_TIME_ZONE_LENGTH,
    ...IANA_TIME_ZONE,
    default: DEFAULT_TIME_ZONE,
    description: 'IANA time zone for the HH:MM of the message',
    example: 'Europe/Berlin',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TIME_ZONE_LENGTH)
  timeZone?: string;
}

export class ExplanationView {
  @ApiProperty({
    enum: ToolErrorCode,
    enumName: 'ToolErrorCode',
    nullable: true,
    description: 'the code the dispatcher should report; null when the tool can be called',
  })
  code: ToolErrorCode | null;
  @ApiProperty({ description: 'callable now: the registry serves it and it is not known DOWN' }) usable: boolean;
  @ApiProperty({
    example: 'Tool client_file_read is temporarily unreachable since 14:00 (the client disconnected); do not call it until it reconnects.',
    description: 'for the LLM, in place of "Unknown tool: <name>"',
  })
  message: string;
  @ApiProperty({ type: CascadeTraceView }) trace: CascadeTraceView;
}
