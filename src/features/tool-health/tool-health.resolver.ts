import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { HealthKeyArgs } from '../../shapes/health-key.args';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { EffectiveHealthView } from './effective-health.view';
import { EffectiveHealthArgs, ToolHealthsArgs, ToolNameArgs } from './query.args';
import { ToolHealthConnection } from './tool-health-connection.model';
import { ToolHealthReadsService } from './tool-health-reads.service';
import { ToolOverviewModel } from './tool-overview.model';

/** Reads of the health documents (D17: audit-reader and admin). */
@Resolver(() => ToolHealthView)
@Roles(Role.AUDIT_READER)
export class ToolHealthResolver {
  constructor(private readonly reads: ToolHealthReadsService) {}

  @Query(() => ToolHealthView, { description: 'One health document by its key.' })
  toolHealth(@Args() key: HealthKeyArgs): Promise<ToolHealthView> {
    return this.reads.getEntry(key);
  }

  @Query(() => ToolHealthConnection, {
    description: 'Health documents matching a filter, a page at a time, ordered by id (stable while documents are written).',
  })
  toolHealths(@Args() args: ToolHealthsArgs): Promise<ToolHealthConnection> {
    return this.reads.toolHealths(args);
  }

  @Query(() => EffectiveHealthView, { description: "The effective status of a tool for a caller's context, with the reason." })
  effectiveHealth(@Args() args: EffectiveHealthArgs): Promise<EffectiveHealthView> {
    return this.reads.effectiveHealth(args.toolName, args.context);
  }

  @Query(() => ToolOverviewModel, { description: "Counts of a tool's stored entries by status and by scope." })
  toolOverview(@Args() args: ToolNameArgs): Promise<ToolOverviewModel> {
    return this.reads.toolOverview(args.toolName);
  }
}
