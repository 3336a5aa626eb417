import { CalendarFeedToken } from '../../domain/calendar-feed-token';

/** The read-only tokens that open the maintenance calendar feed, stored by their hash only. */
export abstract class CalendarFeedTokenRepository {
  abstract insert(token: CalendarFeedToken): Promise<void>;
  abstract list(): Promise<CalendarFeedToken[]>;
  /** The token whose hash this is, or null (a revoked or unknown one). */
  abstract findByHash(tokenHash: string): Promise<CalendarFeedToken | null>;
  /** True when a token was removed. */
  abstract delete(id: string): Promise<boolean>;
}
