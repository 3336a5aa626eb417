import { Module } from '@nestjs/common';
import { ToolHealthModule } from '../features/tool-health/tool-health.module';
import { DiagnosisModule } from '../features/diagnoses/diagnosis.module';
import { PersistenceModule } from '../persistence/persistence.module';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

/** The MCP endpoint over the services REST uses (issue 15). */
@Module({ imports: [DiagnosisModule, ToolHealthModule, PersistenceModule], controllers: [McpController], providers: [McpService] })
export class McpModule {}
