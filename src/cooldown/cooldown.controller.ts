import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { ToolHealthView } from '../common/dto/tool-health.view';
import { CooldownService } from './cooldown.service';
import { ClearCooldownDto, DueForProbeQueryDto, SetCooldownDto, SweepResultView } from './dto/cooldown.dto';

@ApiTags('cooldowns')
@ApiSecurity('api-key')
@Controller('v1')
export class CooldownController {
  constructor(private readonly service: CooldownService) {}

  @Post('cooldowns')
  @HttpCode(200)
  @Roles(Role.DISPATCHER)
  @ApiOkResponse({ type: ToolHealthView })
  setCooldown(@Body() dto: SetCooldownDto): Promise<ToolHealthView> {
    return this.service.setCooldown(dto);
  }

  @Post('cooldowns/clear')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: ToolHealthView })
  clearCooldown(@Body() dto: ClearCooldownDto): Promise<ToolHealthView> {
    return this.service.clearCooldown(dto);
  }

  @Post('cooldowns/sweep')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: SweepResultView })
  sweep(): Promise<SweepResultView> {
    return this.service.sweep();
  }

  @Get('probes/due')
  @Roles(Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER)
  @ApiOkResponse({ type: [ToolHealthView] })
  dueForProbe(@Query() query: DueForProbeQueryDto): Promise<ToolHealthView[]> {
    return this.service.dueForProbe(query.limit);
  }
}
