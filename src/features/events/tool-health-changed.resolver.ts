import { Args, Resolver, Subscription } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { HealthEventModel } from './health-event.model';
import { toHealthEventModel } from './health-event.mapper';
import { OutboxRelay, RelayedEvent } from './outbox-relay.service';
import { ToolHealthChangedArgs } from './tool-health-changed.args';

/** D13 live: the outbox as a subscription (graphql-ws only; the key comes in connection_init). */
@Resolver(() => HealthEventModel)
@Roles(Role.AUDIT_READER)
export class ToolHealthChangedResolver {
  constructor(private readonly relay: OutboxRelay) {}

  @Subscription(() => HealthEventModel, {
    name: 'toolHealthChanged',
    description:
      'Health events (status changes, cooldowns set or expired, inbox items) as they reach the outbox, from any instance; ' +
      'each filter given narrows the feed. Starts at the current end of the outbox; delivery is at least once (dedupe by id).',
    resolve: (event: RelayedEvent) => toHealthEventModel(event),
  })
  toolHealthChanged(@Args() filter: ToolHealthChangedArgs): AsyncIterableIterator<RelayedEvent> {
    return this.relay.listen({ toolName: filter.toolName, scope: filter.scope, scopeId: filter.scopeId, status: filter.status });
  }
}
