import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../auth/roles.decorator';
import { Role } from '../auth/role';
import { CallContextDto } from '../common/dto/call-context.dto';
import { HealthKeyDto } from '../common/dto/health-key.dto';
import { ToolHealthView } from '../common/dto/tool-health.view';
import { CascadeService } from './cascade.service';
import { BatchLookupDto, EffectiveHealthView } from './dto/lookup.dto';

/** Reads: a stored entry by key, and the cascade lookup of §4/§9. */
@ApiTags('lookups')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER, Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER)
@Controller('v1')
export class CascadeController {
  constructor(private readonly service: CascadeService) {}

  @Get('entries')
  @ApiOkResponse({ type: ToolHealthView })
  getEntry(@Query() key: HealthKeyDto): Promise<ToolHealthView> {
    return this.service.getEntry(key);
  }

  @Get('tools/:toolName/availability')
  @ApiOkResponse({ type: EffectiveHealthView })
  lookup(@Param('toolName') toolName: string, @Query() context: CallContextDto): Promise<EffectiveHealthView> {
    return this.service.lookupView(toolName, context);
  }

  @Post('availability/lookup')
  @HttpCode(200)
  @ApiOkResponse({ type: [EffectiveHealthView] })
  lookupMany(@Body() dto: BatchLookupDto): Promise<EffectiveHealthView[]> {
    return this.service.lookupManyView(dto.toolNames, dto.context ?? {});
  }
}
