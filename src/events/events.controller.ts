import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { EventPageView, EventsQueryDto } from './dto/events.dto';
import { EventsService } from './events.service';

/** D13's outbox, read by cursor: status changes, cooldowns set/expired, inbox items. */
@ApiTags('events')
@ApiSecurity('api-key')
@Roles(Role.AUDIT_READER)
@Controller('v1/events')
export class EventsController {
  constructor(private readonly service: EventsService) {}

  @Get()
  @ApiOkResponse({ type: EventPageView })
  read(@Query() query: EventsQueryDto): Promise<EventPageView> {
    return this.service.read(query.after, query.limit);
  }
}
