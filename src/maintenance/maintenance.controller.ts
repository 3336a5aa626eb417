import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { Clock } from '../common/clock';
import { ChangeMaintenanceDto, ListMaintenanceQueryDto, MaintenanceWindowView, ScheduleMaintenanceDto, toMaintenanceWindowView } from './dto/maintenance.dto';
import { MaintenanceService } from './maintenance.service';

/** Issue 16: planned outages, scheduled by admins (P75). Reads are open to audit-readers too (D17). */
@ApiTags('maintenance')
@ApiSecurity('api-key')
@Controller('v1/maintenance-windows')
export class MaintenanceController {
  constructor(
    private readonly service: MaintenanceService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @Roles(Role.ADMIN)
  @ApiCreatedResponse({ type: MaintenanceWindowView })
  async schedule(@Body() dto: ScheduleMaintenanceDto, @CurrentPrincipal() principal: Principal): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.schedule(dto, principal), this.clock.now());
  }

  @Get()
  @Roles(Role.AUDIT_READER)
  @ApiOkResponse({ type: [MaintenanceWindowView] })
  async list(@Query() query: ListMaintenanceQueryDto): Promise<MaintenanceWindowView[]> {
    const now = this.clock.now();
    return (await this.service.list(query)).map((w) => toMaintenanceWindowView(w, now));
  }

  @Patch(':id')
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: MaintenanceWindowView })
  async change(@Param('id') id: string, @Body() dto: ChangeMaintenanceDto, @CurrentPrincipal() principal: Principal): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.change(id, dto, principal), this.clock.now());
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: MaintenanceWindowView, description: 'the cancelled window' })
  async cancel(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.cancel(id, principal), this.clock.now());
  }
}
