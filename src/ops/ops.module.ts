import { Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module';
import { DrainOnCloseHook } from './drain-on-close.hook';
import { LivenessController } from './liveness.controller';
import { ReadinessService } from './readiness.service';

@Module({
  imports: [PersistenceModule],
  controllers: [LivenessController],
  providers: [ReadinessService, DrainOnCloseHook],
  exports: [ReadinessService],
})
export class OpsModule {}
