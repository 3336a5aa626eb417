import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../auth/roles.decorator';
import { ID_PATTERN } from '../../domain/health-key';
import { Role } from '../../domain/role';
import { ApiContract } from '../../errors/openapi-errors';
import { ToolStatsQueryDto, UptimeQueryDto } from './tool-stats.args';
import { ToolStatsService } from './tool-stats.service';
import { ToolStatsView, ToolUptimeView } from './tool-stats.view';

const TOOL_PARAM = {
  name: 'toolName',
  schema: { type: 'string', pattern: ID_PATTERN.source },
  description: 'The tool.',
  example: 'example-tool',
};

/** Issue 39: how a tool's calls have been going, and its uptime per day (the same readers as GraphQL's toolStats and toolUptime). */
@ApiTags('lookups')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER, Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER)
@Controller('v1/tools')
export class ToolStatsController {
  constructor(private readonly service: ToolStatsService) {}

  @Get(':toolName/stats')
  @ApiOkResponse({ type: ToolStatsView })
  @ApiContract(
    'getToolStats',
    "How a tool's calls have been going",
    'Success rate, failures by code and latency percentiles of the last hour and of the last 24 hours hour by hour, from the outcomes the dispatcher reported (with durationMs where it sent one), for everyone or one tenant; and the signals on now (failing often, slow). Counts reach the database every few seconds.',
  )
  @ApiParam(TOOL_PARAM)
  stats(@Param('toolName') toolName: string, @Query() query: ToolStatsQueryDto): Promise<ToolStatsView> {
    return this.service.toolStats(toolName, query.tenantId);
  }

  @Get(':toolName/uptime')
  @ApiOkResponse({ type: ToolUptimeView })
  @ApiContract(
    'getToolUptime',
    "A tool's uptime per day",
    'Per UTC day, today included: the share of time the tool was usable for everyone (from its status history and pins), the share under planned maintenance (apart from outages), and its calls and success rate.',
  )
  @ApiParam(TOOL_PARAM)
  uptime(@Param('toolName') toolName: string, @Query() query: UptimeQueryDto): Promise<ToolUptimeView> {
    return this.service.uptime(toolName, query.days);
  }
}
