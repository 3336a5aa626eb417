import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { CalendarFeedAccess } from './calendar-feed-access.service';
import {
  CalendarFeedTokenSecretView,
  CalendarFeedTokenView,
  CreateCalendarFeedTokenDto,
  RevokedFeedTokenView,
} from './calendar-feed-token.dto';

/** The calendar feed's tokens on the admin API, as over REST: admins only (no @Roles). */
@Resolver(() => CalendarFeedTokenView)
export class CalendarFeedTokensResolver {
  constructor(private readonly access: CalendarFeedAccess) {}

  @Query(() => [CalendarFeedTokenView], {
    description: 'The tokens that open the calendar feed, without the tokens themselves. Admin only.',
  })
  calendarFeedTokens(): Promise<CalendarFeedTokenView[]> {
    return this.access.list();
  }

  @Mutation(() => CalendarFeedTokenSecretView, {
    description:
      'Create a read-only token for the maintenance calendar feed, for calendar apps that subscribe by URL. The answer shows the token and the feed path once; only its hash is kept. It opens the feed and nothing else.',
  })
  createCalendarFeedToken(
    @Args('input', { description: 'What the token is for.' }) input: CreateCalendarFeedTokenDto,
    @CurrentPrincipal() by: Principal,
  ): Promise<CalendarFeedTokenSecretView> {
    return this.access.create(input.label, by);
  }

  @Mutation(() => RevokedFeedTokenView, { description: 'Revoke a calendar feed token: the feed refuses it from now on.' })
  revokeCalendarFeedToken(@Args('id', { type: () => ID, description: 'The token to revoke.' }) id: string): Promise<RevokedFeedTokenView> {
    return this.access.revoke(id);
  }
}
