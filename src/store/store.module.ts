import { Global, Module } from '@nestjs/common';
import { EventRelay } from './event-relay.service';
import { HealthStore } from './health-store.service';
import { PinEndWatch } from './pin-end.watch';

@Global()
@Module({ providers: [HealthStore, EventRelay, PinEndWatch], exports: [HealthStore, EventRelay, PinEndWatch] })
export class StoreModule {}
