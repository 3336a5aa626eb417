import { Injectable } from '@nestjs/common';
import { validateEventCursor } from '../../domain/event-cursor';
import { EventPage, HealthEventOutbox, PositionedEvent } from '../../persistence/health-events/health-event.outbox';

@Injectable()
export class EventsService {
  constructor(private readonly outbox: HealthEventOutbox) {}

  /** REST's page (P145): a cursor the log never handed out is a 400 naming `after`, not a restart. */
  read(after: string | undefined, limit = 100): Promise<EventPage> {
    return this.outbox.readAfter(after === undefined ? null : validateEventCursor('after', after), limit);
  }

  /** GraphQL's page in either direction; both cursors validated like REST's `after`. */
  readBetween(after: string | null, before: string | null, window: { limit: number; backward: boolean }): Promise<PositionedEvent[]> {
    return this.outbox.readBetween(
      after === null ? null : validateEventCursor('after', after),
      before === null ? null : validateEventCursor('before', before),
      window.limit,
      window.backward,
    );
  }

  findById(id: string): Promise<PositionedEvent | null> {
    return this.outbox.findById(id);
  }
}
