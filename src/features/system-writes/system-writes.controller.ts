import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { ClientDisconnectDto, ClientReconnectDto, SessionToolsResultView } from './client-session.dto';
import { MarkAvailableDto, MarkIntermittentDto, MarkUnavailableDto } from './system-write.dto';
import { SystemWritesService } from './system-writes.service';
import {
  BulkMarkAvailableDto,
  BulkMarkIntermittentDto,
  BulkMarkUnavailableDto,
  BulkSystemWriteView,
  bulkSystemWriteJson,
} from './bulk-system-write.dto';
import { ApiContract } from '../../errors/openapi-errors';
import { ID_PATTERN } from '../../domain/health-key';
import { OkAnswer } from '../../shapes/answer-written-by';

/** §7 first row: system writes from the dispatch layer. */
@ApiTags('system writes')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER)
@Controller('v1')
export class SystemWritesController {
  constructor(private readonly service: SystemWritesService) {}

  @Post('health/mark-unavailable')
  @HttpCode(200)
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'markToolUnavailable',
    'Mark a tool down at one scope',
    'The dispatch layer saw a tool fail for everyone at this scope (its backend is unreachable or failing): the entry becomes DOWN, with the code and an optional expected recovery time. Returns the stored entry.',
  )
  markUnavailable(@Body() dto: MarkUnavailableDto): Promise<ToolHealthView> {
    return this.service.markUnavailable(dto);
  }

  @Post('health/mark-intermittent')
  @HttpCode(200)
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'markToolIntermittent',
    'Mark a tool intermittent at one scope',
    'The dispatch layer saw a tool fail now and then: the entry becomes DEGRADED (callable, with a warning for the LLM). Returns the stored entry.',
  )
  markIntermittent(@Body() dto: MarkIntermittentDto): Promise<ToolHealthView> {
    return this.service.markIntermittent(dto);
  }

  @Post('health/mark-available')
  @HttpCode(200)
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'markToolAvailable',
    'Mark a tool available again at one scope',
    'The dispatch layer saw the tool work again: the entry goes back to OK. 404 when nothing is stored for that key (there is nothing to clear). Returns the stored entry.',
  )
  markAvailable(@Body() dto: MarkAvailableDto): Promise<ToolHealthView> {
    return this.service.markAvailable(dto);
  }

  @Post('health/bulk/mark-unavailable')
  @HttpCode(200)
  @OkAnswer(BulkSystemWriteView, { write: bulkSystemWriteJson })
  @ApiContract(
    'markToolsUnavailable',
    'Mark many tools down at one scope',
    'markToolUnavailable for many tools of one scope key in one request and one database write: e.g. an MCP server whose connection closed, all its tools at PROJECT. The same body with toolNames instead of toolName; each tool gets the result and events its single write would.',
  )
  markManyUnavailable(@Body() dto: BulkMarkUnavailableDto): Promise<BulkSystemWriteView> {
    return this.service.markManyUnavailable(dto);
  }

  @Post('health/bulk/mark-intermittent')
  @HttpCode(200)
  @OkAnswer(BulkSystemWriteView, { write: bulkSystemWriteJson })
  @ApiContract(
    'markToolsIntermittent',
    'Mark many tools intermittent at one scope',
    'markToolIntermittent for many tools of one scope key in one request and one database write.',
  )
  markManyIntermittent(@Body() dto: BulkMarkIntermittentDto): Promise<BulkSystemWriteView> {
    return this.service.markManyIntermittent(dto);
  }

  @Post('health/bulk/mark-available')
  @HttpCode(200)
  @OkAnswer(BulkSystemWriteView, { write: bulkSystemWriteJson })
  @ApiContract(
    'markToolsAvailable',
    'Mark many tools available again at one scope',
    'markToolAvailable for many tools of one scope key in one request and one database write: e.g. the MCP server is connected again. A tool with nothing stored gets status 404 in its result; the others are written.',
  )
  markManyAvailable(@Body() dto: BulkMarkAvailableDto): Promise<BulkSystemWriteView> {
    return this.service.markManyAvailable(dto);
  }

  @Post('sessions/:sessionId/client-disconnected')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionToolsResultView })
  @ApiContract(
    'reportClientDisconnected',
    'A client left: its tools are down for the session',
    "A client (for example a desktop app serving client tools) disconnected: each of its tools becomes DOWN for that session, its description kept so the LLM can still be told the tool is gone. One request for all of the client's tools.",
  )
  @ApiParam({
    name: 'sessionId',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    description: 'The session (conversation) the client served.',
    example: 'example-session',
  })
  clientDisconnected(@Param('sessionId') sessionId: string, @Body() dto: ClientDisconnectDto): Promise<SessionToolsResultView> {
    return this.service.clientDisconnected(sessionId, dto);
  }

  @Post('sessions/:sessionId/client-reconnected')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionToolsResultView })
  @ApiContract(
    'reportClientReconnected',
    'A client is back: its tools are available for the session',
    'The client reconnected: each listed tool that was marked down for the session is OK again. Tools never marked stay unwritten.',
  )
  @ApiParam({
    name: 'sessionId',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    description: 'The session (conversation) the client served.',
    example: 'example-session',
  })
  clientReconnected(@Param('sessionId') sessionId: string, @Body() dto: ClientReconnectDto): Promise<SessionToolsResultView> {
    return this.service.clientReconnected(sessionId, dto);
  }
}
