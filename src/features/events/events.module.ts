import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { HealthEventsResolver } from './health-events.resolver';
import { OutboxRelay } from './outbox-relay.service';
import { ToolHealthChangedResolver } from './tool-health-changed.resolver';

/** The event log read by cursor (REST, GraphQL) and live (the outbox relay and the `toolHealthChanged` subscription) (D13). */
@Module({
  imports: [PersistenceModule],
  controllers: [EventsController],
  providers: [EventsService, HealthEventsResolver, OutboxRelay, ToolHealthChangedResolver],
  exports: [EventsService, OutboxRelay],
})
export class EventsModule {}
