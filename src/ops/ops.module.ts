import { Module } from '@nestjs/common';
import { LivenessController } from './liveness.controller';
import { ReadinessService } from './readiness.service';

@Module({ controllers: [LivenessController], providers: [ReadinessService], exports: [ReadinessService] })
export class OpsModule {}
