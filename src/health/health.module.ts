import { Module } from '@nestjs/common';
import { StoreModule } from '../store/store.module';
import { ToolHealthController } from './tool-health.controller';
import { ToolHealthService } from './tool-health.service';

@Module({ imports: [StoreModule], controllers: [ToolHealthController], providers: [ToolHealthService], exports: [ToolHealthService] })
export class HealthModule {}
