import { Module } from '@nestjs/common';
import { ToolHealthModule } from '../tool-health/tool-health.module';
import { ManifestController } from './manifest.controller';
import { ManifestResolver } from './manifest.resolver';
import { ManifestService } from './manifest.service';

@Module({ imports: [ToolHealthModule], controllers: [ManifestController], providers: [ManifestService, ManifestResolver] })
export class ManifestModule {}
