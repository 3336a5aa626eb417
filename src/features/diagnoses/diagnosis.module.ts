import { Module } from '@nestjs/common';
import { WritePathModule } from '../../write-path/write-path.module';
import { DiagnosesResolver } from './diagnoses.resolver';
import { DiagnosisController } from './diagnosis.controller';
import { DiagnosisService } from './diagnosis.service';

/** §7 third row: the diagnosis engine's verdicts and Agrajag's tools (REST), an admin's verdicts (GraphQL). */
@Module({
  imports: [WritePathModule],
  controllers: [DiagnosisController],
  providers: [DiagnosisService, DiagnosesResolver],
  exports: [DiagnosisService],
})
export class DiagnosisModule {}
