import { Module } from '@nestjs/common';
import { CascadeModule } from '../cascade/cascade.module';
import { DiagnosisModule } from '../diagnosis/diagnosis.module';
import { PersistenceModule } from '../persistence/persistence.module';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

/** The MCP endpoint over the services REST uses (issue 15). */
@Module({ imports: [DiagnosisModule, CascadeModule, PersistenceModule], controllers: [McpController], providers: [McpService] })
export class McpModule {}
