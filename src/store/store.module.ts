import { Global, Module } from '@nestjs/common';
import { HealthStore } from './health-store.service';

@Global()
@Module({ providers: [HealthStore], exports: [HealthStore] })
export class StoreModule {}
