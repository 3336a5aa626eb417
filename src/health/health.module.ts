import { Module } from '@nestjs/common';
import { ToolHealthController } from './tool-health.controller';
import { ToolHealthService } from './tool-health.service';

@Module({ controllers: [ToolHealthController], providers: [ToolHealthService], exports: [ToolHealthService] })
export class HealthModule {}
