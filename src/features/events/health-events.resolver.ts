import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { AdminQueryService } from '../../graphql/admin-query.service';
import { HealthEventsArgs } from '../tool-health/query.args';
import { HealthEventConnection, HealthEventModel } from './health-event.model';

/** The outbox (D13), read by cursor. */
@Resolver(() => HealthEventModel)
@Roles(Role.AUDIT_READER)
export class HealthEventsResolver {
  constructor(private readonly queries: AdminQueryService) {}

  @Query(() => HealthEventConnection, { description: 'Events after a cursor, oldest first.' })
  healthEvents(@Args() args: HealthEventsArgs): Promise<HealthEventConnection> {
    return this.queries.healthEvents(args);
  }
}
