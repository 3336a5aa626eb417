import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_DURATION_MS } from '../../domain/outcome-stats';
import { CallContextDto } from '../../shapes/call-context.dto';
import { dtoJsonSchema } from '../../shapes/dto-json-schema';
import { IsId } from '../../shapes/health-key.dto';
import { ToolHealthClassification } from '../../domain/classification';
import { FAILURE_CLASSIFICATION } from '../../shapes/request-formats';
import { FailureReason } from '../../domain/failure-check';
import { ID_PATTERN } from '../../domain/health-key';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';
import { WiderEvidenceView } from '../wider-evidence/wider-evidence.view';
import { ToolSignalsView } from '../tool-stats/tool-stats.view';

export const MAX_SIGNATURES = 50;

class OutcomeDto {
  @ApiProperty({ pattern: ID_PATTERN.source, example: 'example-tool', description: 'The tool that was called.' })
  @IsId()
  toolName: string;

  @ApiPropertyOptional({
    nullable: true,
    type: CallContextDto,
    description: 'Who called: session, user, project, tenant; every level optional.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextDto)
  context?: CallContextDto;

  @ApiPropertyOptional({
    nullable: true,
    type: 'integer',
    minimum: 0,
    maximum: MAX_DURATION_MS,
    example: 840,
    description:
      "How long the call took, in whole milliseconds (at most one hour). Optional: when sent, it feeds the tool's latency statistics and the slow signal; nothing else changes.",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_DURATION_MS)
  durationMs?: number;
}

export class SuccessReportDto extends OutcomeDto {
  @ApiPropertyOptional({
    nullable: true,
    type: [String],
    maxItems: MAX_SIGNATURES,
    example: ['http-502'],
    description: 'The error signatures this success disproves; when absent, the technical ones (backend unreachable or failing).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SIGNATURES)
  @IsId({ each: true })
  errorSignatures?: string[];
}

export class FailureReportDto extends OutcomeDto {
  @ApiProperty({
    enum: ToolErrorCode,
    enumName: 'ToolErrorCode',
    example: ToolErrorCode.BACKEND_FAILED,
    description: "What the dispatch saw. NOT_REGISTERED and DISALLOWED are not the tool's fault and change nothing.",
  })
  @IsEnum(ToolErrorCode)
  code: ToolErrorCode;

  @ApiProperty({
    pattern: ID_PATTERN.source,
    example: 'http-502',
    description: 'A stable name for the error, e.g. the HTTP status; cooldowns are kept per signature.',
  })
  @IsId()
  errorSignature: string;

  @ApiPropertyOptional({
    nullable: true,
    ...FAILURE_CLASSIFICATION,
    description: 'what the synchronous checker already knows of the error, when it could classify it',
  })
  @IsOptional()
  @IsEnum(ToolHealthClassification)
  classification?: ToolHealthClassification;

  @ApiPropertyOptional({ nullable: true, maxLength: 4000, example: '502 Bad Gateway', description: 'The error as the tool reported it.' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  message?: string;
}

export class ChangedEntryView {
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
}

export class SuccessOutcomeView {
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus', description: 'effective status after the success' }) status: ToolStatus;
  @ApiProperty({ type: [ChangedEntryView], description: 'entries this success wrote; empty = nothing written' })
  changed: ChangedEntryView[];
}

export class CooldownRefView {
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty() errorSignature: string;
  @ApiProperty({ type: String, nullable: true }) userId: string | null;
}

/** The answer the dispatcher needs after a failed call. */
export class FailureOutcomeView {
  @ApiProperty({ description: 'eligible for an Agrajag diagnosis' }) spawn: boolean;
  @ApiProperty({ enum: FailureReason, enumName: 'FailureReason' }) reason: FailureReason;
  @ApiProperty({ description: 'pass the original error back to the LLM' }) reflectError: boolean;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'seconds until a diagnosis may be spawned again / the tool is expected back',
  })
  retryAfterSeconds: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) retryAt: Date | null;
  @ApiProperty({
    description:
      'the diagnosis queue coalesces on this (tool, signature); with wider evidence it names the wider scope (tool:signature@TENANT:id, tool:signature@GLOBAL)',
  })
  coalescingKey: string;
  @ApiProperty({
    type: WiderEvidenceView,
    nullable: true,
    description: 'issue 16: set when distinct users and projects seen with this failure cross the thresholds',
  })
  widerEvidence: WiderEvidenceView | null;
  @ApiProperty({
    enum: ToolStatus,
    enumName: 'ToolStatus',
    nullable: true,
    description: 'effective status; null when the code is not a tool fault (nothing was read)',
  })
  status: ToolStatus | null;
  @ApiProperty({ type: CooldownRefView, nullable: true, description: 'the cooldown that matched or was set' })
  cooldown: CooldownRefView | null;
  @ApiProperty({
    type: ToolSignalsView,
    nullable: true,
    description:
      'Evidence from recent call outcomes for the diagnosis, beside the status (which it never changes): the tool is failing often or slow right now compared with its usual; null when neither.',
  })
  signals: ToolSignalsView | null;
  @ApiProperty({
    type: [String],
    description:
      "why, one line per step of the call's evaluation: its reach, what governs it, maintenance, back-at, and why the failure did or did not spawn or set a cooldown",
  })
  why: string[];
}

// ---------------------------------------------------------------------------------------------
// The compiled validation of the two hot routes (@SchemaBody, docs/performance.md): the schemas
// are read off the decorators above (dtoJsonSchema, P80), so the DTO stays the one definition of
// the body. outcome.dto.spec.ts proves the compiled validator answers as the class-validator pipe.

const SUCCESS = dtoJsonSchema(SuccessReportDto);
const FAILURE = dtoJsonSchema(FailureReportDto);
export const SUCCESS_REPORT_SCHEMA = SUCCESS.schema;
export const FAILURE_REPORT_SCHEMA = FAILURE.schema;

/** The words of each pattern rule (the D3a id rule), for a pattern failure. */
export const OUTCOME_PATTERN_MESSAGES: ReadonlyMap<string, string> = new Map([...SUCCESS.patternMessages, ...FAILURE.patternMessages]);
