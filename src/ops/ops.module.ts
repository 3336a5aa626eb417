import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { PersistenceModule } from '../persistence/persistence.module';
import { DrainOnCloseHook } from './drain-on-close.hook';
import { LivenessController } from './liveness.controller';
import { ReadinessService } from './readiness.service';
import { RequestDeadlineInterceptor } from './request-deadline.interceptor';

@Module({
  imports: [PersistenceModule],
  controllers: [LivenessController],
  providers: [ReadinessService, DrainOnCloseHook, { provide: APP_INTERCEPTOR, useClass: RequestDeadlineInterceptor }],
  exports: [ReadinessService],
})
export class OpsModule {}
