import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AcceptsFeedToken, Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { ApiContract } from '../../errors/openapi-errors';
import { MAX_FEED_TOKEN_LENGTH } from '../../domain/calendar-feed-token';
import { DomainError } from '../../domain/domain-error';
import { CalendarFeedAccess } from './calendar-feed-access.service';
import { MaintenanceService } from './maintenance.service';

interface Reply {
  header(name: string, value: string): unknown;
  status(code: number): unknown;
}

/** Whether the client's copy is still the feed's content (RFC 9110, sections 13.1.2 and 13.1.3). */
function notModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, etag: string, lastModified: Date): boolean {
  if (ifNoneMatch !== undefined) {
    // Weak comparison: a tag matches with or without its W/ prefix; `*` matches any.
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
  }
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/**
 * The coming maintenance for calendar apps (P194): read keys, like the list of windows (D17), or
 * a read-only feed token in the query string, since calendar apps subscribe by URL and send no
 * headers (P227). Conditional requests are answered 304 while the events are unchanged.
 */
@ApiTags('maintenance')
@ApiSecurity('api-key')
@Controller('v1')
export class MaintenanceCalendarController {
  constructor(
    private readonly service: MaintenanceService,
    private readonly access: CalendarFeedAccess,
  ) {}

  @Get('maintenance-windows.ics')
  @Roles(Role.AUDIT_READER)
  @AcceptsFeedToken()
  @ApiProduces('text/calendar')
  @ApiQuery({
    name: 'token',
    required: false,
    description: 'A calendar feed token (created by an admin) instead of the x-api-key header, for calendar apps that subscribe by URL.',
    schema: { type: 'string', maxLength: MAX_FEED_TOKEN_LENGTH },
  })
  @ApiOkResponse({ description: 'An RFC 5545 calendar: one VEVENT (UTC) per coming window or occurrence.', schema: { type: 'string' } })
  @ApiResponse({ status: 304, description: 'Not modified: the calendar the client holds (If-None-Match or If-Modified-Since) is current.' })
  @ApiContract(
    'maintenanceCalendar',
    'Maintenance calendar (iCalendar)',
    'The windows in force or starting within the next 60 days — one-off windows and each occurrence of a recurring one — as VEVENTs in UTC, for calendar apps. Needs a read key, or a calendar feed token in the query.',
  )
  async calendar(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('if-modified-since') ifModifiedSince: string | undefined,
    @Query('token') token: unknown,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<string> {
    // The token is checked as the document describes it whether or not a key came too.
    if (token !== undefined && (typeof token !== 'string' || token.length > MAX_FEED_TOKEN_LENGTH)) {
      throw DomainError.invalid('token', `must be one calendar feed token of at most ${MAX_FEED_TOKEN_LENGTH} characters`);
    }
    // A key was checked by the key guard; without one, the token must open the feed.
    if (apiKey === undefined) await this.access.admitToken(token);
    const feed = await this.service.calendar();
    reply.header('etag', feed.etag);
    reply.header('last-modified', feed.lastModified.toUTCString());
    // A token in the URL is a credential: no shared cache keeps the answer.
    reply.header('cache-control', 'private, max-age=300');
    if (notModified(ifNoneMatch, ifModifiedSince, feed.etag, feed.lastModified)) {
      reply.status(304);
      return '';
    }
    reply.header('content-type', 'text/calendar; charset=utf-8');
    return feed.text;
  }
}
