import { Module } from '@nestjs/common';
import { CascadeModule } from '../cascade/cascade.module';
import { ManifestController } from './manifest.controller';
import { ManifestService } from './manifest.service';

@Module({ imports: [CascadeModule], controllers: [ManifestController], providers: [ManifestService] })
export class ManifestModule {}
