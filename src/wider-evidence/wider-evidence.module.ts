import { Global, Module } from '@nestjs/common';
import { WiderEvidenceService } from './wider-evidence.service';

/** Issue 16 (P79). Global: the dispatcher's failure path counts through it. */
@Global()
@Module({ providers: [WiderEvidenceService], exports: [WiderEvidenceService] })
export class WiderEvidenceModule {}
