import { HealthEvent } from '../domain/health-events';

export interface EventPage {
  events: (HealthEvent & { position: string })[];
  /** Pass back as `after` to continue; null when the page was empty. */
  endCursor: string | null;
}

/** The port for D13's outbox: append idempotently, read by cursor. */
export abstract class HealthEventOutbox {
  abstract append(events: readonly HealthEvent[]): Promise<void>;
  abstract readAfter(after: string | null, limit: number): Promise<EventPage>;
}
