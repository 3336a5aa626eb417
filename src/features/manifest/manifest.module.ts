import { Module } from '@nestjs/common';
import { ToolHealthModule } from '../tool-health/tool-health.module';
import { ManifestController } from './manifest.controller';
import { ManifestService } from './manifest.service';

@Module({ imports: [ToolHealthModule], controllers: [ManifestController], providers: [ManifestService] })
export class ManifestModule {}
