import { Float, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import { ToolErrorCode, ToolHealthClassification } from '../../shapes/enums.registration';
import { HealthKeyDto, IdField, IsId } from '../../shapes/health-key.dto';
import { ShapeField } from '../../shapes/shape-field';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { ErrorCodeField, ExpectedRecoveryField, NoteField, TenantField } from '../../shapes/write-fields';
import { MAX_WINDOW_MS, MIN_WINDOW_MS } from '../../domain/cooldown-window';
import { ID_PATTERN } from '../../domain/health-key';
import { AGRAJAG_ARGUMENTS_COMPONENT } from './agrajag-openapi';
import { AgrajagToolName } from './agrajag-tools';

/**
 * recordDiagnosis(scope, key, classification, note, by, expectedRecoveryAt?, userId?, errorSignature?).
 * The one definition (P112) of the REST body and, through RecordDiagnosisInput, the GraphQL input.
 */
@InputType({ isAbstract: true })
export class RecordDiagnosisDto extends HealthKeyDto {
  @ShapeField('What kind of failure (or WORKING) the diagnosis found.', {
    type: () => ToolHealthClassification,
    openapi: { enum: ToolHealthClassification, enumName: 'ToolHealthClassification' },
  })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  @NoteField()
  note?: string | null;

  @IdField('Who diagnosed, e.g. agrajag-7f3c.', { example: 'agrajag-7f3c' })
  by: string;

  @ExpectedRecoveryField()
  expectedRecoveryAt?: Date | null;

  @IdField('The user of a user-specific cooldown or note; null when it concerns everyone at the scope.', { optional: true })
  userId?: string | null;

  @IdField('A stable name for the error, e.g. "http-403".', { optional: true })
  errorSignature?: string | null;

  @ShapeField("The cooldown window of errorSignature in milliseconds (1000 … 30 days); when absent, the classification's default.", {
    type: () => Float,
    optional: true,
    openapi: { type: 'integer', minimum: MIN_WINDOW_MS, maximum: MAX_WINDOW_MS },
  })
  @IsInt()
  @Min(MIN_WINDOW_MS)
  @Max(MAX_WINDOW_MS)
  durationMs?: number | null;

  @ErrorCodeField({ optional: true })
  code?: ToolErrorCode | null;

  @TenantField()
  tenantId?: string | null;
}

export class InvokeAgrajagToolDto {
  @ApiProperty({
    anyOf: Object.values(AGRAJAG_ARGUMENTS_COMPONENT).map((name) => ({ $ref: `#/components/schemas/${name}` })),
    description:
      "The arguments of the tool named in the path: AgrajagSetUnavailableArguments for tool_health_set_unavailable, and so on. Checked against the tool's inputSchema.",
    example: {
      toolName: 'example-tool',
      scope: 'PROJECT',
      scopeId: 'example-project',
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
