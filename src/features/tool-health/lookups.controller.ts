import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { CallContextDto } from '../../shapes/call-context.dto';
import { HealthKeyQueryDto } from '../../shapes/health-key.dto';
import { OkAnswer } from '../../shapes/answer-written-by';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { CascadeService } from './cascade.service';
import { EffectiveHealthView } from './effective-health.view';
import { BatchLookupDto } from './lookup.dto';
import { ApiContract } from '../../errors/openapi-errors';
import { ID_PATTERN } from '../../domain/health-key';

/** Reads: a stored entry by key, and the cascade lookup of §4/§9. */
@ApiTags('lookups')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER, Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER)
@Controller('v1')
export class LookupsController {
  constructor(private readonly service: CascadeService) {}

  @Get('entries')
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'getHealthEntry',
    'Read one stored entry',
    'The stored health entry of one tool at one scope (status, cooldowns, history, pin), exactly as kept. 404 when nothing is stored there; to know whether a tool is usable, use lookupAvailability instead.',
  )
  getEntry(@Query() key: HealthKeyQueryDto): Promise<ToolHealthView> {
    return this.service.getEntry(key);
  }

  @Get('tools/:toolName/availability')
  @ApiOkResponse({ type: EffectiveHealthView })
  @ApiContract(
    'lookupAvailability',
    'Is this tool usable in this context?',
    "Looks the tool up from the narrowest scope of the caller's context (session, user, project, tenant) to GLOBAL and answers the effective status, whether it is being retested, the entry that decided and the wider problems it hid. A tool nothing is known about is OK.",
  )
  @ApiParam({
    name: 'toolName',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    description: 'The tool to look up.',
    example: 'example-tool',
  })
  lookup(@Param('toolName') toolName: string, @Query() context: CallContextDto): Promise<EffectiveHealthView> {
    return this.service.lookupView(toolName, context);
  }

  @Post('availability/lookup')
  @HttpCode(200)
  @ApiOkResponse({ type: [EffectiveHealthView] })
  @ApiContract(
    'lookupAvailabilityBatch',
    'Are these tools usable in this context?',
    'The same answer as lookupAvailability for several tools at once, in the order asked, in one database query.',
  )
  lookupMany(@Body() dto: BatchLookupDto): Promise<EffectiveHealthView[]> {
    return this.service.lookupManyView(dto.toolNames, dto.context ?? {});
  }
}
