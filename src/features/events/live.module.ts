import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { OutboxRelay } from './outbox-relay.service';
import { ToolHealthChangedResolver } from './tool-health-changed.resolver';
import { WsPayloadBound } from '../../graphql/ws-payload-bound';

/** The schema generator needs these classes too (schema.gql carries the subscription). */
export const LIVE_RESOLVERS = [ToolHealthChangedResolver];

/** D13 live updates: the outbox relay and the `toolHealthChanged` subscription. */
@Module({
  imports: [PersistenceModule],
  providers: [OutboxRelay, WsPayloadBound, ...LIVE_RESOLVERS],
  exports: [OutboxRelay],
})
export class LiveModule {}
