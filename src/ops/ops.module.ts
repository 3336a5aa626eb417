import { Module } from '@nestjs/common';
import { DrainOnCloseHook } from './drain-on-close.hook';
import { LivenessController } from './liveness.controller';
import { ReadinessService } from './readiness.service';

@Module({ controllers: [LivenessController], providers: [ReadinessService, DrainOnCloseHook], exports: [ReadinessService] })
export class OpsModule {}
