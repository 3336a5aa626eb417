import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { AdminQueryService } from '../../graphql/admin-query.service';
import { HealthKeyArgs } from '../../shapes/health-key.args';
import { EffectiveHealthArgs, LimitArgs, ToolHealthsArgs, ToolNameArgs } from './query.args';
import { EffectiveHealthModel } from './effective-health.model';
import { SweepCandidateModel } from '../cooldowns/sweep.model';
import { ToolHealthConnection } from './tool-health-connection.model';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { ToolOverviewModel } from './tool-overview.model';

/** Reads of the health documents (D17: audit-reader and admin). */
@Resolver(() => ToolHealthView)
@Roles(Role.AUDIT_READER)
export class ToolHealthResolver {
  constructor(private readonly queries: AdminQueryService) {}

  @Query(() => ToolHealthView, { description: 'One health document by its key.' })
  toolHealth(@Args() key: HealthKeyArgs): Promise<ToolHealthView> {
    return this.queries.getEntry(key);
  }

  @Query(() => ToolHealthConnection, {
    description: 'Health documents matching a filter, a page at a time, ordered by id (stable while documents are written).',
  })
  toolHealths(@Args() args: ToolHealthsArgs): Promise<ToolHealthConnection> {
    return this.queries.toolHealths(args);
  }

  @Query(() => EffectiveHealthModel, { description: "The effective status of a tool for a caller's context, with the reason." })
  effectiveHealth(@Args() args: EffectiveHealthArgs): Promise<EffectiveHealthModel> {
    return this.queries.effectiveHealth(args.toolName, args.context);
  }

  @Query(() => ToolOverviewModel, { description: "Counts of a tool's stored entries by status and by scope." })
  toolOverview(@Args() args: ToolNameArgs): Promise<ToolOverviewModel> {
    return this.queries.toolOverview(args.toolName);
  }

  @Query(() => [SweepCandidateModel], { description: 'Entries holding cooldowns that the next sweep deletes.' })
  cooldownsDueForSweep(@Args() args: LimitArgs): Promise<SweepCandidateModel[]> {
    return this.queries.cooldownsDueForSweep(args.limit);
  }

  @Query(() => [ToolHealthView], {
    description: 'DOWN entries without an expected recovery time that nobody has checked for a while: the tools to probe.',
  })
  dueForProbe(@Args() args: LimitArgs): Promise<ToolHealthView[]> {
    return this.queries.dueForProbe(args.limit);
  }
}
