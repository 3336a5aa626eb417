import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { WiderEvidenceService } from './wider-evidence.service';

/** Issue 16 (P79): the dispatcher's failure path counts through it. */
@Module({ imports: [PersistenceModule, WritePathModule], providers: [WiderEvidenceService], exports: [WiderEvidenceService] })
export class WiderEvidenceModule {}
