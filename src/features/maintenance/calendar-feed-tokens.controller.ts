import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { ApiContract } from '../../errors/openapi-errors';
import { CalendarFeedAccess } from './calendar-feed-access.service';
import {
  CalendarFeedTokenSecretView,
  CalendarFeedTokenView,
  CreateCalendarFeedTokenDto,
  RevokedFeedTokenView,
} from './calendar-feed-token.dto';

/** Admins' management of the calendar feed's read-only tokens (admin only: no @Roles). */
@ApiTags('maintenance')
@ApiSecurity('api-key')
@Controller('v1/calendar-feed-tokens')
export class CalendarFeedTokensController {
  constructor(private readonly access: CalendarFeedAccess) {}

  @Post()
  @ApiCreatedResponse({ type: CalendarFeedTokenSecretView })
  @ApiContract(
    'createCalendarFeedToken',
    'Create a calendar feed token',
    'A read-only token for the maintenance calendar feed, for calendar apps that subscribe by URL. The answer shows the token and the feed path once; only its hash is kept. It opens the feed and nothing else.',
  )
  create(@Body() dto: CreateCalendarFeedTokenDto, @CurrentPrincipal() principal: Principal): Promise<CalendarFeedTokenSecretView> {
    return this.access.create(dto.label, principal);
  }

  @Get()
  @ApiOkResponse({ type: [CalendarFeedTokenView] })
  @ApiContract(
    'listCalendarFeedTokens',
    'List calendar feed tokens',
    'The tokens that open the calendar feed, without the tokens themselves.',
  )
  list(): Promise<CalendarFeedTokenView[]> {
    return this.access.list();
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: RevokedFeedTokenView })
  @ApiContract('revokeCalendarFeedToken', 'Revoke a calendar feed token', 'The feed refuses the token from now on (401).')
  revoke(@Param('id') id: string): Promise<RevokedFeedTokenView> {
    return this.access.revoke(id);
  }
}
