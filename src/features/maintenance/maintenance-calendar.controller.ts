import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { ApiContract } from '../../errors/openapi-errors';
import { MaintenanceService } from './maintenance.service';

/** The coming maintenance for calendar apps; read keys, like the list of windows (D17) (P194). */
@ApiTags('maintenance')
@ApiSecurity('api-key')
@Controller('v1')
export class MaintenanceCalendarController {
  constructor(private readonly service: MaintenanceService) {}

  @Get('maintenance-windows.ics')
  @Roles(Role.AUDIT_READER)
  @ApiProduces('text/calendar')
  @ApiOkResponse({ description: 'An RFC 5545 calendar: one VEVENT (UTC) per coming window or occurrence.', schema: { type: 'string' } })
  @ApiContract(
    'maintenanceCalendar',
    'Maintenance calendar (iCalendar)',
    'The windows in force or starting within the next 60 days — one-off windows and each occurrence of a recurring one — as VEVENTs in UTC, for calendar apps.',
  )
  async calendar(@Res({ passthrough: true }) reply: { header(name: string, value: string): unknown }): Promise<string> {
    reply.header('content-type', 'text/calendar; charset=utf-8');
    return this.service.calendar();
  }
}
