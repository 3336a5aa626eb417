import { Module } from '@nestjs/common';
import { CascadeController } from './cascade.controller';
import { CascadeService } from './cascade.service';

@Module({ controllers: [CascadeController], providers: [CascadeService], exports: [CascadeService] })
export class CascadeModule {}
