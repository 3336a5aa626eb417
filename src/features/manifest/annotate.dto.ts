import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IANA_TIME_ZONE } from '../../shapes/request-formats';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsEnum, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CallContextDto } from '../../shapes/call-context.dto';
import { IsId } from '../../shapes/health-key.dto';
import { FilterReason, ToolSafety } from '../../domain/audience';
import { ID_PATTERN } from '../../domain/health-key';
import { ToolStatus } from '../../domain/tool-status';
import { CascadeTraceView } from '../../shapes/cascade-trace.view';
import { DEFAULT_TIME_ZONE, MAX_TIME_ZONE_LENGTH } from '../../domain/clock-format';

export { DEFAULT_TIME_ZONE, MAX_TIME_ZONE_LENGTH };

export const MAX_MANIFEST_TOOLS = 500;
export const MAX_DESCRIPTION_LENGTH = 4000;
export const MAX_ROLES = 50;
export const MAX_ROLE_LENGTH = 100;

/** A list of engine roles, optional: one rule for the roles a tool requires and the roles an engine holds. */
function RolesField(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ nullable: true, type: [String], maxItems: MAX_ROLES, description, example: ['tool-health-writer'] }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_ROLES),
    IsString({ each: true }),
    MaxLength(MAX_ROLE_LENGTH, { each: true }),
  );
}

/** What the service must know of a tool to annotate it, besides its description (§8, D15). */
class ToolRefDto {
  @ApiProperty({ pattern: ID_PATTERN.source, example: 'client_file_read' })
  @IsId()
  name: string;

  @ApiPropertyOptional({
    nullable: true,
    enum: ToolSafety,
    enumName: 'ToolSafety',
    description: 'absent = not known to be safe: hidden in a probe turn',
  })
  @IsOptional()
  @IsEnum(ToolSafety)
  safety?: ToolSafety;

  @RolesField('the engine must hold every one of these roles to see the tool')
  requiresEngineRoles?: string[];
}

/** One tool of the turn's manifest as the dispatcher sends it (§8, D15). */
export class ToolManifestDto extends ToolRefDto {
  @ApiProperty({ maxLength: MAX_DESCRIPTION_LENGTH, example: 'Read a file on the user machine.' })
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description: string;
}

/** One tool of the turn's manifest for annotation by difference; the caller already holds its description (D23). */
export class ManifestToolRefDto extends ToolRefDto {
  @ApiPropertyOptional({
    nullable: true,
    maxLength: MAX_DESCRIPTION_LENGTH,
    example: 'Read a file on the user machine.',
    description: 'optional: when sent, a listed tool comes back with it and its suffix, as in the full annotation',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string;
}

/** Who the turn is for: the context, the engine's roles, the time zone, the kind of turn (§8, §9). */
class ManifestTurnDto {
  @ApiPropertyOptional({ nullable: true, type: CallContextDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextDto)
  context?: CallContextDto;

  @RolesField("the engine's roles; none = sees only tools that require none")
  engineRoles?: string[];

  @ApiPropertyOptional({
    nullable: true,
    maxLength: MAX_TIME_ZONE_LENGTH,
    ...IANA_TIME_ZONE,
    default: DEFAULT_TIME_ZONE,
    description: 'IANA time zone for the HH:MM of the suffixes',
    example: 'Europe/Berlin',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TIME_ZONE_LENGTH)
  timeZone?: string;

  @ApiPropertyOptional({
    nullable: true,
    default: false,
    description: 'a probe turn keeps only SAFE_PROBE tools and lists no departed tools',
  })
  @IsOptional()
  @IsBoolean()
  probeTurn?: boolean;

  @ApiPropertyOptional({
    nullable: true,
    default: false,
    description:
      "merge the service's own Agrajag tools after the input; like any tool they are visible only to engines holding tool-health-writer",
  })
  @IsOptional()
  @IsBoolean()
  includeAgrajagTools?: boolean;
}

/** §9 read path: annotate one turn's manifest for one engine in one context. */
export class AnnotateManifestDto extends ManifestTurnDto {
  @ApiProperty({ type: [ToolManifestDto], maxItems: MAX_MANIFEST_TOOLS, description: 'names must be unique' })
  @IsArray()
  @ArrayMaxSize(MAX_MANIFEST_TOOLS)
  @ValidateNested({ each: true })
  @Type(() => ToolManifestDto)
  tools: ToolManifestDto[];
}

/** The same turn, answered by difference: only the tools that are not plainly usable (D23). */
export class AnnotateChangesDto extends ManifestTurnDto {
  @ApiProperty({
    type: [ManifestToolRefDto],
    maxItems: MAX_MANIFEST_TOOLS,
    description: 'names must be unique; descriptions may be left out',
  })
  @IsArray()
  @ArrayMaxSize(MAX_MANIFEST_TOOLS)
  @ValidateNested({ each: true })
  @Type(() => ManifestToolRefDto)
  tools: ManifestToolRefDto[];

  @ApiPropertyOptional({
    nullable: true,
    default: false,
    description: "list each tool's reason (the cascade trace) as the full annotation does; by default null, which keeps the answer small",
  })
  @IsOptional()
  @IsBoolean()
  includeReasons?: boolean;
}

/** What the LLM will be told of one tool this turn (§9, D15), its description aside. */
class ToolAnnotationView {
  @ApiProperty() name: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'unavailable since 14:00',
    description: 'the suffix alone; null = none (OK, RETESTING)',
  })
  suffix: string | null;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus', description: 'effective status: the narrowest live problem, or a pin' })
  status: ToolStatus;
  @ApiProperty({ description: 'DOWN/DEGRADED whose expected recovery has passed: listed plainly, the next call tries it' })
  retesting: boolean;
  @ApiProperty({ description: 'DOWN and not RETESTING: listed so the LLM knows it exists, not to be called' }) doNotCall: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'do not call, plan without it' }) hint: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "JSON Schema of the arguments for tools this service supplied (includeAgrajagTools); null for the caller's own tools",
  })
  inputSchema: Record<string, unknown> | null;
}

/** One manifest entry as the LLM will see it this turn (§9, D15). */
export class AnnotatedToolView extends ToolAnnotationView {
  @ApiProperty({ type: CascadeTraceView, description: 'why: the matched entry, by whom, since/until when, what it shadowed' })
  reason: CascadeTraceView;
  @ApiProperty({ description: 'the original description with the suffix in parentheses, when there is one' }) description: string;
}

/** One tool that is not plainly usable this turn, as the full annotation lists it (D23). */
export class ToolChangeView extends ToolAnnotationView {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the description the caller sent with the suffix in parentheses; null when it sent none (append the suffix yourself)',
  })
  description: string | null;
  @ApiProperty({
    type: CascadeTraceView,
    nullable: true,
    description: 'why, as in the full annotation, when the request asked for it (includeReasons); else null',
  })
  reason: CascadeTraceView | null;
}

export class FilteredToolView {
  @ApiProperty() name: string;
  @ApiProperty({ enum: FilterReason, enumName: 'FilterReason' }) reason: FilterReason;
}

export class FilteredByReasonView {
  @ApiProperty({ type: 'integer', description: 'the engine lacks one of the required roles' }) MISSING_ENGINE_ROLE: number;
  @ApiProperty({ type: 'integer', description: 'probe turn and the tool is not SAFE_PROBE' }) NOT_SAFE_PROBE: number;
}

export class FilteredSummaryView {
  @ApiProperty({ type: 'integer', description: 'How many tools were filtered out.' }) count: number;
  @ApiProperty({ type: FilteredByReasonView }) byReason: FilteredByReasonView;
  @ApiProperty({ type: [FilteredToolView], description: 'in input order' }) tools: FilteredToolView[];
}

export class AnnotatedManifestView {
  @ApiProperty({ type: [AnnotatedToolView], description: 'the visible tools, in input order (merged Agrajag tools last)' })
  tools: AnnotatedToolView[];
  @ApiProperty({
    type: [AnnotatedToolView],
    description:
      "the session's client tools that are DOWN at SESSION scope but missing from the input, with the description stored at disconnect; sorted by name; empty on a probe turn or without a session",
  })
  departed: AnnotatedToolView[];
  @ApiProperty({ type: FilteredSummaryView }) filtered: FilteredSummaryView;
}

/** The turn's annotation by difference: what differs from the descriptions the caller holds (D23). */
export class AnnotatedChangesView {
  @ApiProperty({
    type: [ToolChangeView],
    description:
      'the visible tools that are not plainly usable (a suffix, or do not call), in input order; every other visible tool is to be shown as the caller describes it',
  })
  tools: ToolChangeView[];
  @ApiProperty({ type: 'integer', description: 'how many visible tools are plainly usable and so not listed' }) plain: number;
  @ApiProperty({ type: [AnnotatedToolView], description: 'as in the full annotation: the client tools that left with their client' })
  departed: AnnotatedToolView[];
  @ApiProperty({ type: FilteredSummaryView }) filtered: FilteredSummaryView;
}
