import { Injectable } from '@nestjs/common';
import { EventPage, HealthEventOutbox } from '../persistence/health-event.outbox';

@Injectable()
export class EventsService {
  constructor(private readonly outbox: HealthEventOutbox) {}

  read(after: string | undefined, limit = 100): Promise<EventPage> {
    return this.outbox.readAfter(after ?? null, limit);
  }
}
