import { Module } from '@nestjs/common';
import { CascadeModule } from '../cascade/cascade.module';
import { DiagnosisModule } from '../diagnosis/diagnosis.module';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

/** The MCP endpoint over the services REST uses (issue 15). */
@Module({ imports: [DiagnosisModule, CascadeModule], controllers: [McpController], providers: [McpService] })
export class McpModule {}
