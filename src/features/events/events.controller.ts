import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { EventPageView, EventsQueryDto } from './events.dto';
import { EventsService } from './events.service';
import { ApiContract } from '../../errors/openapi-errors';

/** D13's outbox, read by cursor: status changes, cooldowns set/expired, inbox items. */
@ApiTags('events')
@ApiSecurity('api-key')
@Roles(Role.AUDIT_READER)
@Controller('v1/events')
export class EventsController {
  constructor(private readonly service: EventsService) {}

  @Get()
  @ApiOkResponse({ type: EventPageView })
  @ApiContract(
    'readEvents',
    'Read the event log',
    'Status changes, cooldowns set and expired, pins and diagnosis notes, oldest first, one page at a time: pass the endCursor of a page as after to read the next one.',
  )
  read(@Query() query: EventsQueryDto): Promise<EventPageView> {
    return this.service.read(query.after, query.limit);
  }
}
