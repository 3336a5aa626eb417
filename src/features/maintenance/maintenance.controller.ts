import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiParam, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { Clock } from '../../runtime/clock';
import { ApiContract } from '../../errors/openapi-errors';
import {
  ChangeMaintenanceDto,
  ChangeOccurrenceDto,
  EndSeriesDto,
  ListMaintenanceQueryDto,
  ScheduleMaintenanceDto,
  SkipOccurrenceDto,
} from './maintenance.dto';
import { MaintenanceWindowView, toMaintenanceWindowView } from './maintenance-window.view';
import { MaintenanceService } from './maintenance.service';

const SERIES_ID = {
  name: 'id',
  schema: { type: 'string' as const, format: 'uuid' },
  description: 'The id of the recurring window (the series), as scheduleMaintenance answered it.',
  example: '0db94c8e-6f1a-4c43-9a57-2b1e8f3a5d10',
};

/** Issue 16: planned outages, scheduled by admins (P75). Reads are open to audit-readers too (D17). */
@ApiTags('maintenance')
@ApiExtraModels(ChangeMaintenanceDto, EndSeriesDto) // bodies that are nullable references (P144)
@ApiSecurity('api-key')
@Controller('v1/maintenance-windows')
export class MaintenanceController {
  constructor(
    private readonly service: MaintenanceService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @Roles(Role.ADMIN)
  @ApiContract(
    'scheduleMaintenance',
    'Schedule a maintenance window',
    'Announces a planned outage of one tool at one scope: while it is in force the tool reads DOWN until its end, the manifest says "under maintenance — expected back at HH:MM", and failure reports never start a diagnosis. Before it starts, lookups and the manifest show it coming. Admin only.',
  )
  @ApiCreatedResponse({ type: MaintenanceWindowView })
  async schedule(@Body() dto: ScheduleMaintenanceDto, @CurrentPrincipal() principal: Principal): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.schedule(dto, principal), this.clock.now());
  }

  @Get()
  @Roles(Role.AUDIT_READER)
  @ApiContract(
    'listMaintenanceWindows',
    'List maintenance windows',
    'The scheduled, running and past windows, filtered by tool, scope or phase.',
  )
  @ApiOkResponse({ type: [MaintenanceWindowView] })
  async list(@Query() query: ListMaintenanceQueryDto): Promise<MaintenanceWindowView[]> {
    const now = this.clock.now();
    return (await this.service.list(query)).map((w) => toMaintenanceWindowView(w, now));
  }

  @Patch(':id')
  @Roles(Role.ADMIN)
  @ApiContract(
    'changeMaintenance',
    'Change a maintenance window',
    'Moves a window that has not started, or changes when a running one ends, or its reason. Admin only.',
  )
  @ApiParam({
    name: 'id',
    schema: { type: 'string', format: 'uuid' },
    description: 'The window id, as scheduleMaintenance answered it.',
    example: '0db94c8e-6f1a-4c43-9a57-2b1e8f3a5d10',
  })
  @ApiBody({
    required: false,
    schema: { type: 'object', nullable: true, allOf: [{ $ref: getSchemaPath(ChangeMaintenanceDto) }] },
    description: 'The fields to change; no body (or null) changes nothing.',
  })
  @ApiOkResponse({ type: MaintenanceWindowView })
  async change(
    @Param('id') id: string,
    @Body() dto: ChangeMaintenanceDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.change(id, dto, principal), this.clock.now());
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'cancelMaintenance',
    'Cancel a maintenance window',
    'Cancels a coming window, or ends a running one now; the tool then reads its stored evidence again. Admin only.',
  )
  @ApiParam({
    name: 'id',
    schema: { type: 'string', format: 'uuid' },
    description: 'The window id, as scheduleMaintenance answered it.',
    example: '0db94c8e-6f1a-4c43-9a57-2b1e8f3a5d10',
  })
  @ApiOkResponse({ type: MaintenanceWindowView, description: 'the cancelled window' })
  async cancel(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.cancel(id, principal), this.clock.now());
  }

  @Post(':id/skip')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'skipMaintenanceOccurrence',
    'Skip one occurrence of a recurring window',
    'The occurrence the rule starts at `occurrence` does not happen; the others stay. Only before it began. Admin only.',
  )
  @ApiParam(SERIES_ID)
  @ApiOkResponse({ type: MaintenanceWindowView })
  async skip(
    @Param('id') id: string,
    @Body() dto: SkipOccurrenceDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.skipOccurrence(id, dto.occurrence, principal), this.clock.now());
  }

  @Post(':id/occurrence')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'changeMaintenanceOccurrence',
    'Change one occurrence of a recurring window',
    'Moves, extends, shortens or re-words the occurrence the rule starts at `occurrence`, alone (its start only before it began). Admin only.',
  )
  @ApiParam(SERIES_ID)
  @ApiOkResponse({ type: MaintenanceWindowView })
  async changeOne(
    @Param('id') id: string,
    @Body() dto: ChangeOccurrenceDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MaintenanceWindowView> {
    const { occurrence, ...change } = dto;
    return toMaintenanceWindowView(await this.service.changeOccurrence(id, occurrence, change, principal), this.clock.now());
  }

  @Post(':id/end')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'endMaintenanceSeries',
    'End a recurring window',
    'No occurrence starts at or after `at` (now when absent); one in force runs to its end. Admin only.',
  )
  @ApiParam(SERIES_ID)
  @ApiBody({
    required: false,
    schema: { type: 'object', nullable: true, allOf: [{ $ref: getSchemaPath(EndSeriesDto) }] },
    description: 'When the series ends; no body (or null) ends it now.',
  })
  @ApiOkResponse({ type: MaintenanceWindowView })
  async end(@Param('id') id: string, @Body() dto: EndSeriesDto, @CurrentPrincipal() principal: Principal): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.endSeries(id, dto?.at ?? null, principal), this.clock.now());
  }
}
