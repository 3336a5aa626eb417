import { ID, InputType } from '@nestjs/graphql';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_FEED_TOKEN_LABEL_LENGTH } from '../../domain/calendar-feed-token';
import { ShapeField } from '../../shapes/shape-field';
import { INSTANT, ViewField, ViewType } from '../../shapes/view-field';

/** A calendar feed token to create: the REST body and, under its GraphQL name, the mutation's input. */
@InputType('CreateCalendarFeedTokenInput', { description: 'A read-only token for the maintenance calendar feed.' })
export class CreateCalendarFeedTokenDto {
  @ShapeField('What the token is for, e.g. whose calendar subscribes with it.', {
    openapi: { minLength: 1, maxLength: MAX_FEED_TOKEN_LABEL_LENGTH, example: 'on-call team calendar' },
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_FEED_TOKEN_LABEL_LENGTH)
  label: string;
}

@ViewType('CalendarFeedToken', 'A token that opens the maintenance calendar feed, without the token itself.')
export class CalendarFeedTokenView {
  @ViewField("The token's id (to revoke it).", { type: () => ID, openapi: { type: String } }) id: string;
  @ViewField('What the token is for.') label: string;
  @ViewField('When it was created.', INSTANT) createdAt: Date;
  @ViewField('"admin:<key name>" of the admin who created it.') createdBy: string;
}

@ViewType('CalendarFeedTokenSecret', 'A calendar feed token just created: the token and the feed path, shown this once.')
export class CalendarFeedTokenSecretView {
  @ViewField('The token as listed from now on.', { type: () => CalendarFeedTokenView, openapi: { type: CalendarFeedTokenView } })
  feedToken: CalendarFeedTokenView;
  @ViewField('The token, shown this once: only its hash is kept.', { openapi: { example: 'calfeed_3q2-7w…' } }) token: string;
  @ViewField('The path a calendar app subscribes to (prefix it with the service URL): the feed, with the token in its query.', {
    openapi: { example: '/v1/maintenance-windows.ics?token=calfeed_3q2-7w…' },
  })
  feedPath: string;
}

@ViewType('RevokedCalendarFeedToken', 'The calendar feed token revoked.')
export class RevokedFeedTokenView {
  @ViewField('The id of the token revoked.', { type: () => ID, openapi: { type: String } }) id: string;
}
