import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { Principal } from '../../auth/principal';
import {
  CalendarFeedToken,
  MAX_FEED_TOKEN_LENGTH,
  FEED_TOKEN_PREFIX,
  checkFeedTokenLabel,
  feedTokenHash,
  feedTokenSecret,
} from '../../domain/calendar-feed-token';
import { DomainError, DomainErrorCode } from '../../domain/domain-error';
import { CalendarFeedTokenRepository } from '../../persistence/calendar-feed-tokens/calendar-feed-token.repository';
import { Clock } from '../../runtime/clock';
import { adminActor } from '../../shapes/admin-actor';
import { CalendarFeedTokenSecretView, CalendarFeedTokenView } from './calendar-feed-token.dto';

export const CALENDAR_FEED_PATH = '/v1/maintenance-windows.ics';

function view(token: CalendarFeedToken): CalendarFeedTokenView {
  return { id: token.id, label: token.label, createdAt: token.createdAt, createdBy: token.createdBy };
}

/**
 * Who may read the calendar feed (P227): a key with a read role, sent as the `x-api-key` header
 * like every other route, or a feed token in the query string — calendar apps subscribe by URL
 * and send no headers. A token opens that feed alone; admins create (shown once) and revoke them.
 */
@Injectable()
export class CalendarFeedAccess {
  constructor(
    private readonly tokens: CalendarFeedTokenRepository,
    private readonly clock: Clock,
  ) {}

  async create(label: string, principal: Principal): Promise<CalendarFeedTokenSecretView> {
    const secret = feedTokenSecret(randomBytes(32));
    const token: CalendarFeedToken = {
      id: randomUUID(),
      label: checkFeedTokenLabel(label),
      tokenHash: feedTokenHash(secret),
      createdAt: this.clock.now(),
      createdBy: adminActor(principal),
    };
    await this.tokens.insert(token);
    return { feedToken: view(token), token: secret, feedPath: `${CALENDAR_FEED_PATH}?token=${encodeURIComponent(secret)}` };
  }

  async list(): Promise<CalendarFeedTokenView[]> {
    return (await this.tokens.list()).map(view);
  }

  async revoke(id: string): Promise<{ id: string }> {
    if (!(await this.tokens.delete(id))) throw DomainError.notFound(`calendar feed token ${id} not found`);
    return { id };
  }

  /** Lets a feed request without an API key in by its token, or throws 401. */
  async admitToken(token: unknown): Promise<void> {
    if (typeof token === 'string' && token.startsWith(FEED_TOKEN_PREFIX) && token.length <= MAX_FEED_TOKEN_LENGTH) {
      if (await this.tokens.findByHash(feedTokenHash(token))) return;
      throw new DomainError(DomainErrorCode.UNAUTHENTICATED, 'unknown or revoked calendar feed token');
    }
    throw new DomainError(
      DomainErrorCode.UNAUTHENTICATED,
      'an API key is required (header x-api-key), or a calendar feed token (query token, created by an admin)',
    );
  }
}
