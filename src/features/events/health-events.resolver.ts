import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { EventsService } from './events.service';
import { HealthEventsArgs } from './health-events.args';
import { HealthEventConnection, HealthEventModel } from './health-event.model';

/** The outbox (D13), read by cursor. */
@Resolver(() => HealthEventModel)
@Roles(Role.AUDIT_READER)
export class HealthEventsResolver {
  constructor(private readonly events: EventsService) {}

  @Query(() => HealthEventConnection, { description: 'Events after a cursor, oldest first.' })
  healthEvents(@Args() args: HealthEventsArgs): Promise<HealthEventConnection> {
    return this.events.healthEvents(args);
  }
}
