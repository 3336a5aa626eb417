import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { ToolHealthView } from '../common/dto/tool-health.view';
import { AGRAJAG_TOOLS } from './agrajag-tools';
import { DiagnosisService } from './diagnosis.service';
import { AgrajagToolResultView, AgrajagToolView, InvokeAgrajagToolDto, RecordDiagnosisDto } from './dto/diagnosis.dto';

/** The diagnosis engine's write path (§7 third row), gated by the tool-health-writer role (§8). */
@ApiTags('diagnosis (Agrajag)')
@ApiSecurity('api-key')
@Roles(Role.TOOL_HEALTH_WRITER)
@Controller('v1')
export class DiagnosisController {
  constructor(private readonly service: DiagnosisService) {}

  @Post('diagnoses')
  @HttpCode(200)
  @ApiOkResponse({ type: ToolHealthView })
  recordDiagnosis(@Body() dto: RecordDiagnosisDto): Promise<ToolHealthView | null> {
    return this.service.recordDiagnosis(dto);
  }

  @Get('agrajag/tools')
  @ApiOkResponse({ type: [AgrajagToolView] })
  listTools(): readonly AgrajagToolView[] {
    return AGRAJAG_TOOLS;
  }

  @Post('agrajag/tools/:name/invoke')
  @HttpCode(200)
  @ApiOkResponse({ type: AgrajagToolResultView })
  invoke(@Param('name') name: string, @Body() dto: InvokeAgrajagToolDto, @CurrentPrincipal() principal: Principal): Promise<AgrajagToolResultView> {
    return this.service.invokeTool(name, dto.arguments, dto.by ?? `key:${principal.name}`);
  }
}
