import { Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module';
import { EventRelay } from './event-relay.service';
import { HealthStore } from './health-store.service';
import { PinEndWatch } from './pin-end.watch';
import { EventScopeStatus } from './event-scope-status';

@Module({
  imports: [PersistenceModule],
  providers: [HealthStore, EventRelay, EventScopeStatus, PinEndWatch],
  exports: [HealthStore, EventRelay, EventScopeStatus, PinEndWatch],
})
export class WritePathModule {}
