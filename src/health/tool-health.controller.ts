import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../auth/roles.decorator';
import { Role } from '../auth/role';
import { ToolHealthView } from '../common/dto/tool-health.view';
import { ClientDisconnectDto, ClientReconnectDto, SessionToolsResultView } from './dto/client-session.dto';
import { MarkAvailableDto, MarkIntermittentDto, MarkUnavailableDto } from './dto/system-write.dto';
import { ToolHealthService } from './tool-health.service';

/** §7 first row: system writes from the dispatch layer. */
@ApiTags('system writes')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER)
@Controller('v1')
export class ToolHealthController {
  constructor(private readonly service: ToolHealthService) {}

  @Post('health/mark-unavailable')
  @HttpCode(200)
  @ApiOkResponse({ type: ToolHealthView })
  markUnavailable(@Body() dto: MarkUnavailableDto): Promise<ToolHealthView> {
    return this.service.markUnavailable(dto);
  }

  @Post('health/mark-intermittent')
  @HttpCode(200)
  @ApiOkResponse({ type: ToolHealthView })
  markIntermittent(@Body() dto: MarkIntermittentDto): Promise<ToolHealthView> {
    return this.service.markIntermittent(dto);
  }

  @Post('health/mark-available')
  @HttpCode(200)
  @ApiOkResponse({ type: ToolHealthView })
  markAvailable(@Body() dto: MarkAvailableDto): Promise<ToolHealthView> {
    return this.service.markAvailable(dto);
  }

  @Post('sessions/:sessionId/client-disconnected')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionToolsResultView })
  clientDisconnected(@Param('sessionId') sessionId: string, @Body() dto: ClientDisconnectDto): Promise<SessionToolsResultView> {
    return this.service.clientDisconnected(sessionId, dto);
  }

  @Post('sessions/:sessionId/client-reconnected')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionToolsResultView })
  clientReconnected(@Param('sessionId') sessionId: string, @Body() dto: ClientReconnectDto): Promise<SessionToolsResultView> {
    return this.service.clientReconnected(sessionId, dto);
  }
}
