import { Module } from '@nestjs/common';
import { WritePathModule } from '../../write-path/write-path.module';
import { DiagnosisController } from './diagnosis.controller';
import { DiagnosisService } from './diagnosis.service';

@Module({ imports: [WritePathModule], controllers: [DiagnosisController], providers: [DiagnosisService], exports: [DiagnosisService] })
export class DiagnosisModule {}
