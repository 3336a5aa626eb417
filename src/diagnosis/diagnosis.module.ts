import { Module } from '@nestjs/common';
import { StoreModule } from '../store/store.module';
import { DiagnosisController } from './diagnosis.controller';
import { DiagnosisService } from './diagnosis.service';

@Module({ imports: [StoreModule], controllers: [DiagnosisController], providers: [DiagnosisService], exports: [DiagnosisService] })
export class DiagnosisModule {}
