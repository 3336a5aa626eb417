import { HealthEvent } from '../../domain/health-events';

export type PositionedEvent = HealthEvent & { position: string };

export interface EventPage {
  events: PositionedEvent[];
  /** Pass back as `after` to continue; null when the page was empty. */
  endCursor: string | null;
}

/**
 * The port for D13's outbox, read by cursor. Only the event relay writes it (P53): it gives each
 * event a position from a counter and inserts in that order, one relay at a time, so a position
 * is never behind a cursor already handed out.
 */
export abstract class HealthEventOutbox {
  /** Inserts in the given order; an id already in the outbox is skipped (it keeps its first position). */
  abstract insertInOrder(events: readonly PositionedEvent[]): Promise<void>;
  abstract readAfter(after: string | null, limit: number): Promise<EventPage>;
  /**
   * Up to `limit` events strictly between the positions given (null: unbounded), oldest first,
   * or newest first when `backward` (a reader paging back from `before`, P145).
   */
  abstract readBetween(
    after: string | null,
    before: string | null,
    limit: number,
    backward: boolean,
    /** Only the events of this document (a console's "last events" of one entry). */
    docId?: string | null,
  ): Promise<PositionedEvent[]>;
  /** One event by its id (P54), null when the outbox has none: GraphQL's node(id:). */
  abstract findById(id: string): Promise<PositionedEvent | null>;
  /** The position of the newest event, null when the outbox is empty (a live feed starts there). */
  abstract lastPosition(): Promise<string | null>;
}

/**
 * `c` + the counter, zero-padded to 15 digits, so positions sort as strings. The leading `c`
 * sorts after every `<ISO instant>|<id>` position written before P53, so an old cursor still
 * reads on into the new events.
 */
export function positionOf(sequence: number): string {
  return `c${String(sequence).padStart(15, '0')}`;
}
