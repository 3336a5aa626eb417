import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { HealthKeyDto, IsId } from '../../common/dto/health-key.dto';
import { IsIsoDateTime } from '../../common/dto/iso-date-time';
import { ToolHealthView } from '../../common/dto/tool-health.view';
import { ToolHealthClassification } from '../../domain/classification';
import { ID_PATTERN } from '../../domain/health-key';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { AGRAJAG_ARGUMENTS_COMPONENT } from '../agrajag-openapi';
import { AgrajagToolName } from '../agrajag-tools';

/** recordDiagnosis(scope, key, classification, note, by, expectedRecoveryAt?, userId?, errorSignature?). */
export class RecordDiagnosisDto extends HealthKeyDto {
  @ApiProperty({ enum: ToolHealthClassification, enumName: 'ToolHealthClassification' })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @ApiPropertyOptional({ nullable: true, maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;

  @ApiProperty({ pattern: ID_PATTERN.source, example: 'agrajag-7f3c' })
  @IsId()
  by: string;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  expectedRecoveryAt?: Date;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  userId?: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  errorSignature?: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1000,
    maximum: 2_592_000_000,
    description: "The cooldown window of errorSignature in milliseconds; when absent, the classification's default.",
  })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(2_592_000_000)
  durationMs?: number;

  @ApiPropertyOptional({ nullable: true, enum: ToolErrorCode, enumName: 'ToolErrorCode' })
  @IsOptional()
  @IsEnum(ToolErrorCode)
  code?: ToolErrorCode;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  tenantId?: string;
}

export class InvokeAgrajagToolDto {
  @ApiProperty({
    anyOf: Object.values(AGRAJAG_ARGUMENTS_COMPONENT).map((name) => ({ $ref: `#/components/schemas/${name}` })),
    description:
      "The arguments of the tool named in the path: AgrajagSetUnavailableArguments for tool_health_set_unavailable, and so on. Checked against the tool's inputSchema.",
    example: {
      toolName: 'jira_search',
      scope: 'PROJECT',
      scopeId: 'p-1',
      classification: 'INTERMITTENT',
      note: 'gateway 502 every few calls',
      errorSignature: 'http-502',
    },
  })
  @IsObject()
  arguments: Record<string, unknown>;

  @ApiPropertyOptional({
    nullable: true,
    pattern: ID_PATTERN.source,
    description: "the Agrajag process recorded as `by`; default the API key's name",
    example: 'agrajag-7f3c',
  })
  @IsOptional()
  @IsId()
  by?: string;
}

export class AgrajagToolView {
  @ApiProperty({ enum: AgrajagToolName, enumName: 'AgrajagToolName' }) name: AgrajagToolName;
  @ApiProperty() description: string;
  @ApiProperty({ enum: ['SAFE_PROBE'] }) safety: string;
  @ApiProperty({ type: [String] }) requiresEngineRoles: string[];
  @ApiProperty({ type: Object }) inputSchema: Record<string, unknown>;
}

export class AgrajagToolResultView {
  @ApiProperty({ enum: AgrajagToolName, enumName: 'AgrajagToolName' }) tool: AgrajagToolName;
  @ApiProperty({ description: 'a short sentence for the LLM' }) summary: string;
  @ApiProperty({ type: ToolHealthView, nullable: true }) entry: ToolHealthView | null;
}
