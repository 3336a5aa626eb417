import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { OkAnswer } from '../../shapes/answer-written-by';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { AGRAJAG_TOOLS, AgrajagToolName } from './agrajag-tools';
import { DiagnosisService } from './diagnosis.service';
import { AgrajagToolResultView, AgrajagToolView, InvokeAgrajagToolDto, RecordDiagnosisDto } from './diagnosis.dto';
import { ApiContract } from '../../errors/openapi-errors';

/** Set on a verdict whose status was recorded but whose cooldown the full entry refused (D20). */
export const COOLDOWN_REFUSED_HEADER = 'tool-health-cooldown-refused';

/** The diagnosis engine's write path (§7 third row), gated by the tool-health-writer role (§8). */
@ApiTags('diagnosis (Agrajag)')
@ApiSecurity('api-key')
@Roles(Role.TOOL_HEALTH_WRITER)
@Controller('v1')
export class DiagnosisController {
  constructor(private readonly service: DiagnosisService) {}

  @Post('diagnoses')
  @HttpCode(200)
  @OkAnswer(ToolHealthView, {
    headers: {
      [COOLDOWN_REFUSED_HEADER]: {
        description:
          'Present when the status was recorded but the cooldown was not: the entry already holds the most active cooldowns it may. Says which signature was refused.',
        schema: { type: 'string' },
      },
    },
  })
  @ApiContract(
    'recordDiagnosis',
    'Record a diagnosis verdict',
    'The diagnosis engine records what it found about a tool at one scope: its classification, a note, and optionally the expected recovery time, an error signature to cool down and its window. Returns the stored entry.',
  )
  async recordDiagnosis(
    @Body() dto: RecordDiagnosisDto,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<ToolHealthView | null> {
    const { entry, cooldownRefused } = await this.service.recordDiagnosis(dto);
    // The status is recorded; the answer says the cooldown was not (the body stays the entry) (D20).
    if (cooldownRefused) reply.header(COOLDOWN_REFUSED_HEADER, cooldownRefused);
    return entry;
  }

  @Get('agrajag/tools')
  @ApiOkResponse({ type: [AgrajagToolView] })
  @ApiContract(
    'listAgrajagTools',
    "List the diagnosis engine's tools",
    'The four tools the Agrajag diagnosis engine uses to write its verdicts, each with a description for the LLM and the JSON Schema of its arguments.',
  )
  listTools(): readonly AgrajagToolView[] {
    return AGRAJAG_TOOLS;
  }

  @Post('agrajag/tools/:name/invoke')
  @HttpCode(200)
  @ApiOkResponse({ type: AgrajagToolResultView })
  @ApiContract(
    'invokeAgrajagTool',
    "Call one of the diagnosis engine's tools",
    "Runs one Agrajag tool with its arguments (validated against the tool's schema, see the AgrajagArguments components) and answers a short sentence for the LLM and the entry written. 404 for an unknown tool name.",
  )
  @ApiParam({
    name: 'name',
    enum: AgrajagToolName,
    enumName: 'AgrajagToolName',
    description: 'The tool to call.',
    example: AgrajagToolName.SET_UNAVAILABLE,
  })
  invoke(
    @Param('name') name: string,
    @Body() dto: InvokeAgrajagToolDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AgrajagToolResultView> {
    return this.service.invokeTool(name, dto.arguments, dto.by ?? `key:${principal.name}`);
  }
}
