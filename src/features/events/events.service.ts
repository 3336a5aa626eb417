import { Injectable } from '@nestjs/common';
import { validateEventCursor } from '../../domain/event-cursor';
import { EventPage, HealthEventOutbox, PositionedEvent } from '../../persistence/health-events/health-event.outbox';
import { connectionOf, pageWindow } from '../../shapes/connection';
import { EVENTS_PAGE_DEFAULT, HealthEventsArgs } from './health-events.args';
import { toHealthEventModel } from './health-event.mapper';
import { HealthEventConnection } from './health-event.model';

@Injectable()
export class EventsService {
  constructor(private readonly outbox: HealthEventOutbox) {}

  /** REST's page (P145): a cursor the log never handed out is a 400 naming `after`, not a restart. */
  read(after: string | undefined, limit = 100): Promise<EventPage> {
    return this.outbox.readAfter(after === undefined ? null : validateEventCursor('after', after), limit);
  }

  /** GraphQL's page in either direction (P145); both cursors validated like REST's `after`. */
  async healthEvents(args: HealthEventsArgs): Promise<HealthEventConnection> {
    const window = pageWindow(args, EVENTS_PAGE_DEFAULT);
    const events = await this.outbox.readBetween(
      args.after == null ? null : validateEventCursor('after', args.after),
      args.before == null ? null : validateEventCursor('before', args.before),
      window.limit,
      window.backward,
      args.docId ?? null,
    );
    return connectionOf(events.map(toHealthEventModel), args, window, (event) => event.position);
  }

  findById(id: string): Promise<PositionedEvent | null> {
    return this.outbox.findById(id);
  }
}
