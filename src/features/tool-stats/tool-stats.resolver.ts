import { Args, Query, Resolver } from '@nestjs/graphql';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { ToolStatsArgs, ToolUptimeArgs } from './tool-stats.args';
import { ToolStatsService } from './tool-stats.service';
import { ToolSignalsEntryView, ToolStatsView, ToolUptimeView } from './tool-stats.view';

/** Issue 39: the statistics for the console and other readers (D17: audit-reader and admin). */
@Resolver()
@Roles(Role.AUDIT_READER)
export class ToolStatsResolver {
  constructor(private readonly service: ToolStatsService) {}

  @Query(() => ToolStatsView, {
    description:
      "How a tool's calls have been going: the last hour, the last 24 hours hour by hour, and the signals on now (as GET /v1/tools/{toolName}/stats).",
  })
  toolStats(@Args() args: ToolStatsArgs): Promise<ToolStatsView> {
    return this.service.toolStats(args.toolName, args.tenantId);
  }

  @Query(() => [ToolSignalsEntryView], {
    description: 'Every tool whose recent calls are failing often or slow compared with its usual, right now (for everyone).',
  })
  toolSignals(): ToolSignalsEntryView[] {
    return this.service.toolSignals();
  }

  @Query(() => ToolUptimeView, {
    description: "A tool's uptime per UTC day for everyone, maintenance apart, with its calls (as GET /v1/tools/{toolName}/uptime).",
  })
  toolUptime(@Args() args: ToolUptimeArgs): Promise<ToolUptimeView> {
    return this.service.uptime(args.toolName, args.days);
  }
}
